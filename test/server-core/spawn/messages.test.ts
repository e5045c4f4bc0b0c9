import { describe, expect, it } from 'vitest';
import { isToSpawner } from '../../../server-core/spawn/messages';

const run = { t: 'run', id: 1, file: 'git', args: ['log'], cwd: '/w', env: { A: 'b' } };

describe('isToSpawner', () => {
  it('accepts the three orders', () => {
    expect(isToSpawner(run)).toBe(true);
    expect(isToSpawner({ t: 'kill', id: 1, signal: 'SIGKILL' })).toBe(true);
    expect(isToSpawner({ t: 'ack', id: 1, bytes: 0 })).toBe(true);
  });

  it.each([
    ['not an object', 'run git'],
    ['null', null],
    ['an unknown order', { ...run, t: 'shell' }],
    ['a missing id', { ...run, id: undefined }],
    ['id 0', { ...run, id: 0 }],
    ['a fractional id', { ...run, id: 1.5 }],
    ['a file that is not a string', { ...run, file: ['git'] }],
    ['args as one string', { ...run, args: 'log -p' }],
    ['a non-string argument', { ...run, args: ['log', 1] }],
    ['a missing cwd', { ...run, cwd: undefined }],
    ['a non-string environment value', { ...run, env: { A: 1 } }],
    ['an environment array', { ...run, env: ['A=b'] }],
    ['a signal that is not a name', { t: 'kill', id: 1, signal: '9; rm -rf /' }],
    ['a negative acknowledgement', { t: 'ack', id: 1, bytes: -1 }],
    ['an infinite acknowledgement', { t: 'ack', id: 1, bytes: Number.POSITIVE_INFINITY }],
  ])('refuses %s', (_, m) => expect(isToSpawner(m)).toBe(false));
});
