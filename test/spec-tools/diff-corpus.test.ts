// Runs the diff corpus (diff-corpus.cases.ts) through diffVersions, the CLI's entry point, and checks
// that every case is classified as expected: right (exactly the expected changes), missed (some
// expected change not reported, nothing else reported) or wrong (anything else).
import { join } from 'node:path';
import { loadSpec } from '@idea-kit/spec-lib/spec';
import { describe, expect, it } from 'vitest';
import type { Change } from '../../spec-tools/diff/types';
import { diffVersions } from '../../spec-tools/diff/version-diff';
import { CASES, type CorpusCase } from './diff-corpus.cases';
import { REPO } from './scratch';
import { copySpec } from './spec-copy';

const SPEC = join(REPO, 'spec');
// The corpus's edits name the shapes of v0.1.7's schemas (diag/list's items inline, no discriminated
// unions of changes): it is a test of the diff, so its base stays put while later versions move
// (what the diff cannot prove inside a union is diff-unproven.test.ts's).
const CORPUS_BASE = '0.1.7';
const LATEST = loadSpec(SPEC, CORPUS_BASE);

interface Use {
  location: string;
  path: string;
}
const at = (c: Use) => (c.path ? `${c.location} › ${c.path}` : c.location);
/** Where a change is reported: its own place and, for a change grouped under a $def, its use sites. */
const places = (c: Change) => [at(c), ...((c as { uses?: Use[] }).uses ?? []).map(at)];

function runCase(k: CorpusCase): Change[] {
  const a = copySpec(LATEST);
  const b = copySpec(LATEST, '99.0.0');
  k.setup?.(a);
  k.setup?.(b);
  k.change(b);
  return diffVersions(a, b).changes;
}

type Verdict = 'right' | 'wrong' | 'missed';

function verdict(k: CorpusCase, changes: Change[]): Verdict {
  const left = [...changes];
  let unmatched = 0;
  for (const [level, where] of k.expect) {
    const i = left.findIndex((c) => c.level === level && places(c).some((p) => p.includes(where)));
    if (i < 0) unmatched++;
    else left.splice(i, 1);
  }
  if (unmatched === 0 && left.length === 0) return 'right';
  if (left.length === 0) return 'missed';
  return 'wrong';
}

const render = (cs: Change[]) => cs.map((c) => `${c.level} ${places(c).join(' | ')}`);

describe('diff corpus', () => {
  it('holds at least 60 classified changes, ids unique, every area covered', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(CASES.map((k) => k.id)).size).toBe(CASES.length);
    expect(new Set(CASES.map((k) => k.area)).size).toBe(13);
  });

  it.each(CASES.map((k) => [`${k.area}: ${k.id}`, k] as const))('%s', (_name, k) => {
    const changes = runCase(k);
    expect({ verdict: verdict(k, changes), reported: render(changes) }).toEqual({
      verdict: 'right',
      reported: expect.anything(),
    });
  });

  it('figures', () => {
    const n = { right: 0, wrong: 0, missed: 0 };
    for (const k of CASES) n[verdict(k, runCase(k))]++;
    console.log(`diff corpus: ${CASES.length} cases, ${n.right} right, ${n.wrong} wrong, ${n.missed} missed`);
    expect(n.right).toBe(CASES.length);
  });
});
