// Every keyword of JSON Schema draft 2020-12 is judged one way or another by the diff: its table
// (spec-tools/diff/keywords.ts) must hold exactly the keywords of the 2020-12 vocabulary meta-schemas
// (read from the copy ajv ships, so a keyword cannot be forgotten), and each keyword has edits both
// ways (diff-keywords.cases.ts), each judged in params and in results: narrowing breaks clients in
// params, widening in results, a rewrite is no change, and a keyword the diff does not reason about
// is WARN at least, naming it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Json } from '@idea-kit/spec-lib/spec';
import { describe, expect, it } from 'vitest';
import { KEYWORDS } from '../../spec-tools/diff/keywords';
import { type Change, type Level, levelRank } from '../../spec-tools/diff/types';
import { diffKeywordCase, expectedLevels, KEYWORD_CASES, type KeywordCase } from './diff-keywords.cases';
import { REPO } from './scratch';

const META = join(REPO, 'node_modules/ajv/dist/refs/json-schema-2020-12/meta');

/** Keyword → vocabulary, from the properties of each vocabulary's meta-schema. */
function metaKeywords(): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readdirSync(META).filter((x) => x.endsWith('.json'))) {
    const meta = JSON.parse(readFileSync(join(META, f), 'utf8')) as { properties: Record<string, Json> };
    for (const k of Object.keys(meta.properties)) out.set(k, f.replace(/\.json$/, ''));
  }
  return out;
}

function worst(cs: Change[]): Level | null {
  return cs.reduce<Level | null>((w, c) => (w === null || levelRank(c.level) > levelRank(w) ? c.level : w), null);
}

const title = (k: KeywordCase) => `${k.keyword} ${k.edit}: ${JSON.stringify(k.from)} → ${JSON.stringify(k.to)}`;

describe('draft 2020-12 keywords', () => {
  it('the table holds exactly the keywords of the 2020-12 vocabularies, each in its own', () => {
    const meta = metaKeywords();
    expect(meta.size).toBe(57);
    expect(Object.keys(KEYWORDS).sort()).toEqual([...meta.keys()].sort());
    for (const [k, rule] of Object.entries(KEYWORDS)) expect({ k, v: rule.vocabulary }).toEqual({ k, v: meta.get(k) });
  });

  it('every keyword has edits both ways: reasoned ones a narrowing and a widening', () => {
    const missing: string[] = [];
    for (const [k, rule] of Object.entries(KEYWORDS)) {
      const edits = KEYWORD_CASES.filter((c) => c.keyword === k).map((c) => c.edit);
      const need =
        rule.treatment === 'reasoned'
          ? (['narrows', 'widens'] as const)
          : rule.treatment === 'annotation'
            ? (['annotates', 'annotates'] as const)
            : (['unproven', 'unproven'] as const);
      for (const e of new Set(need)) {
        if (edits.filter((x) => x === e).length < need.filter((x) => x === e).length) missing.push(`${k}: ${e}`);
      }
    }
    expect(missing).toEqual([]);
    expect(KEYWORD_CASES.filter((c) => !(c.keyword in KEYWORDS))).toEqual([]);
  });

  it.each(KEYWORD_CASES.map((k) => [title(k), k] as const))('%s', (_t, k) => {
    const got = { params: diffKeywordCase(k, 'request'), results: diffKeywordCase(k, 'response') };
    const levels = { params: worst(got.params), results: worst(got.results) };
    expect({ levels, reported: [...got.params, ...got.results].map((c) => `${c.level} ${c.message}`) }).toEqual({
      levels: expectedLevels(k),
      reported: expect.anything(),
    });
    // What the diff does not reason about it never calls safe, and its WARN names the keyword.
    if (k.edit === 'unproven' || KEYWORDS[k.keyword]?.treatment === 'unreasoned') {
      for (const cs of [got.params, got.results]) {
        expect(cs.filter((c) => c.level === 'INFO')).toEqual([]);
        if (worst(cs) === 'WARN') expect(cs.some((c) => c.message.includes(`\`${k.keyword}\``))).toBe(true);
      }
    }
  });

  it('figures', () => {
    const by = (t: string) => Object.values(KEYWORDS).filter((r) => r.treatment === t).length;
    const n = { reasoned: by('reasoned'), annotation: by('annotation'), unreasoned: by('unreasoned') };
    console.log(
      `draft 2020-12: ${Object.keys(KEYWORDS).length} keywords: ${n.reasoned} reasoned, ${n.annotation} annotations, ${n.unreasoned} unreasoned (WARN); ${KEYWORD_CASES.length} edits`,
    );
    expect(n.reasoned + n.annotation + n.unreasoned).toBe(57);
  });
});
