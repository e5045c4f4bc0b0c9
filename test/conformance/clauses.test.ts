// Every rule the suite enforces is traceable to a clause (the served version's clauses.json, rendered
// with anchors into its protocol.md). That every clause is checked, by a case or by named tests, is
// coverage.test.ts.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { specVersions } from '@idea-kit/spec-lib/spec';
import { describe, expect, it } from 'vitest';
import { CLAUSES, CLAUSES_JSON, clauseAnchor, clauseSince, levelOf, PROTOCOL_MD } from '../../conformance/lib/clauses';
import { fixturesFor, loadCases, parseCase } from '../../conformance/lib/load';

const protocolMd = readFileSync(new URL(`../../${PROTOCOL_MD}`, import.meta.url), 'utf8');

const fixture = (over: Record<string, unknown>) =>
  JSON.stringify({
    id: 'protocol/x',
    description: 'x',
    spec: 'T9',
    since: '0.1.0',
    workspace: 'any',
    kind: 'exchange',
    handshake: 'auto',
    steps: [
      { send: { topic: '/app/vscode/nope', requestId: 'a', params: {} } },
      { expect: { error: { code: 'UNKNOWN_TOPIC' } } },
    ],
    ...over,
  });

describe('clauses', () => {
  it('a case citing a clause that does not exist is refused, naming the file', () => {
    expect(() => parseCase(fixture({ spec: 'T99' }), 'protocol/x.json')).toThrow(
      `protocol/x.json: spec "T99" names no clause of ${CLAUSES_JSON}`,
    );
    expect(() => parseCase(fixture({ spec: 'Handshake' }), 'protocol/x.json')).toThrow(/\/spec must match pattern/);
    expect(parseCase(fixture({}), 'protocol/x.json')).toMatchObject({
      clause: { id: 'T9' },
      profile: 'core',
      level: 'must',
    });
  });

  it("a case may not be must under a reading (should) clause, and gets its clause's level and profile", () => {
    expect(() => parseCase(fixture({ spec: 'R5', level: 'must' }), 'protocol/x.json')).toThrow(
      /level "must" above its clause R5/,
    );
    expect(parseCase(fixture({ spec: 'R5' }), 'protocol/x.json')).toMatchObject({
      profile: 'readings',
      level: 'should',
    });
    expect(parseCase(fixture({ spec: 'H2' }), 'protocol/x.json')).toMatchObject({ profile: 'security', level: 'must' });
  });

  it('every clause is rendered in protocol.md under the anchor reports link to, with its level', () => {
    for (const c of CLAUSES.values()) {
      expect(protocolMd, c.id).toContain(`<a id="${clauseAnchor(c.id)}"></a>**${c.id}. ${c.title}**`);
      expect(levelOf(c)).toBe(c.layer === 'reading' ? 'should' : 'must');
    }
  });

  it("gives a clause's since as the clauses file states it, and refuses an id no clause has", () => {
    const file = JSON.parse(readFileSync(new URL(`../../${CLAUSES_JSON}`, import.meta.url), 'utf8')) as {
      clauses: { id: string; since: string }[];
    };
    expect(file.clauses.length).toBeGreaterThan(10);
    for (const c of file.clauses) expect(clauseSince(c.id), c.id).toBe(c.since);
    expect(() => clauseSince('T99')).toThrow(`no clause T99 in ${CLAUSES_JSON}`);
  });
});

describe('protocol/handshake-success', () => {
  const SPEC = resolve(import.meta.dirname, '../../spec');
  const versions = specVersions(SPEC).filter((v) => existsSync(fixturesFor(v)));

  // A server advertising a topic of its version must not fail T3 because the case's list is behind.
  it.each(versions)('%s: the capabilities it accepts are exactly the topics of the version', (v) => {
    const hs = loadCases(fixturesFor(v)).find((lc) => lc.case.id === 'protocol/handshake-success');
    const steps = hs?.case.kind === 'exchange' ? hs.case.steps : [];
    const accepted = (steps[1] as { expect?: { capabilities?: { $each?: { $oneOf?: string[] } } } } | undefined)?.expect
      ?.capabilities?.$each?.$oneOf;
    const index = JSON.parse(readFileSync(join(SPEC, `v${v}`, 'index.json'), 'utf8')) as {
      topics: { topic: string }[];
    };
    expect([...(accepted ?? [])].sort()).toEqual(index.topics.map((t) => t.topic).sort());
  });
});
