// The client a piece of work is for, keyed by its request's signal; and no AsyncLocalStorage anywhere in
// the servers (its promise hooks would tax every await of the process).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bindClient, clientOf, INTERNAL_CLIENT, inheritClient } from '../../../server-core/limits/client-context';

const ROOT = join(__dirname, '../../..');
/** An import or require of node:async_hooks (AsyncLocalStorage, createHook), in any spelling. */
const ASYNC_HOOKS = /\b(from|import|require)\s*\(?\s*['"](node:)?async_hooks['"]/;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|mts)$/.test(f) && !f.includes('node_modules'))
    .map((f) => join(dir, f));
}

describe('client context', () => {
  it('a bound signal names its client; any other signal, or none, is internal work', () => {
    const a = new AbortController().signal;
    bindClient(a, 'connection-1');
    expect(clientOf(a)).toBe('connection-1');
    expect(clientOf(new AbortController().signal)).toBe(INTERNAL_CLIENT);
    expect(clientOf(undefined)).toBe(INTERNAL_CLIENT);
  });

  it('a derived signal inherits its source’s client, and only a bound source gives one', () => {
    const from = new AbortController().signal;
    bindClient(from, 'connection-2');
    const derived = inheritClient(AbortSignal.any([from]), from);
    expect(clientOf(derived)).toBe('connection-2');
    const orphan = inheritClient(new AbortController().signal, new AbortController().signal);
    expect(clientOf(orphan)).toBe(INTERNAL_CLIENT);
    expect(clientOf(inheritClient(new AbortController().signal, undefined))).toBe(INTERNAL_CLIENT);
  });

  it('no server source uses AsyncLocalStorage or async hooks', () => {
    const offenders = ['runtime', 'server-core', 'extension/src', 'idea-server/src']
      .flatMap(sources)
      .filter((f) => ASYNC_HOOKS.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
