// Protocol versions come from the spec: the served one from spec/served.json (generated/current.ts),
// when a rule or a case applies from its clause's or topic's `since`. One hand-written file names
// versions, the facts of the releases before the spec was kept here (spec-tools/history/facts.ts);
// a version literal anywhere else in the programs is a second place for what the spec says.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../scripts/build';

/** The hand-written program folders (not generated/, tests, benches or build output). */
const FOLDERS = [
  'conformance',
  'runtime',
  'server-core',
  'cli',
  'mcp',
  'idea-server',
  'extension',
  'spec-tools',
  'livehost',
];
/** A protocol version as a string literal: '0.1.7' or "0.1.7". */
const LITERAL = /(['"])0\.1\.\d+\1/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return ['node_modules', 'dist', 'out'].includes(e.name) ? [] : sources(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

it('one hand-written file names a protocol version: the history facts', () => {
  const all = FOLDERS.flatMap((f) => sources(join(ROOT, f)));
  expect(all.length).toBeGreaterThan(100);
  const naming = all.filter((f) => LITERAL.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f));
  expect(naming).toEqual(['spec-tools/history/facts.ts']);
});
