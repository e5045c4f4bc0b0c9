// Which spec idea-spec works on without --root: the spec repository around the working directory
// (a clone or a protocol fork), else the spec it comes with (this checkout; in the package, its dist/spec).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultRoot } from '../../spec-tools/spec-repo';
import { REPO } from './scratch';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'idea-spec-root-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('defaultRoot', () => {
  it('is the nearest folder around the working directory that holds spec/releases.json', () => {
    const fork = join(base, 'fork');
    mkdirSync(join(fork, 'spec'), { recursive: true });
    writeFileSync(join(fork, 'spec', 'releases.json'), '{"releases":[]}\n');
    mkdirSync(join(fork, 'docs', 'deep'), { recursive: true });
    expect(defaultRoot(fork)).toBe(fork);
    expect(defaultRoot(join(fork, 'docs', 'deep'))).toBe(fork);
  });

  it('falls back to the spec the tool comes with when the working directory has none', () => {
    const empty = join(base, 'empty');
    mkdirSync(empty);
    expect(defaultRoot(empty)).toBe(REPO);
  });
});
