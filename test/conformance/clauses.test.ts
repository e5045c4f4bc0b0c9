// Every rule the suite enforces is traceable to a clause (spec/v0.1.6/clauses.json, rendered with
// anchors into generated/v0.1.6/protocol.md), and every clause of the protocol text is checked.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLAUSES, clauseAnchor, levelOf, PROTOCOL_MD } from '../../conformance/lib/clauses';
import { loadCases, parseCase } from '../../conformance/lib/load';

const cases = loadCases();
const protocolMd = readFileSync(new URL(`../../${PROTOCOL_MD}`, import.meta.url), 'utf8');

const fixture = (over: Record<string, unknown>) => JSON.stringify({
  id: 'protocol/x', description: 'x', spec: 'T9', since: '0.1.0', workspace: 'any', kind: 'exchange', handshake: 'auto',
  steps: [{ send: { topic: '/app/vscode/nope', requestId: 'a', params: {} } }, { expect: { error: { code: 'UNKNOWN_TOPIC' } } }], ...over,
});

describe('clauses', () => {
  it('a case citing a clause that does not exist is refused, naming the file', () => {
    expect(() => parseCase(fixture({ spec: 'T99' }), 'protocol/x.json')).toThrow('protocol/x.json: spec "T99" names no clause of spec/v0.1.6/clauses.json');
    expect(() => parseCase(fixture({ spec: 'Handshake' }), 'protocol/x.json')).toThrow(/\/spec must match pattern/);
    expect(parseCase(fixture({}), 'protocol/x.json')).toMatchObject({ clause: { id: 'T9' }, profile: 'core', level: 'must' });
  });

  it('a case may not be must under a reading (should) clause, and gets its clause\'s level and profile', () => {
    expect(() => parseCase(fixture({ spec: 'R5', level: 'must' }), 'protocol/x.json')).toThrow(/level "must" above its clause R5/);
    expect(parseCase(fixture({ spec: 'R5' }), 'protocol/x.json')).toMatchObject({ profile: 'readings', level: 'should' });
    expect(parseCase(fixture({ spec: 'H2' }), 'protocol/x.json')).toMatchObject({ profile: 'security', level: 'must' });
  });

  it('every clause of the protocol text is checked by at least one case', () => {
    const cited = new Set(cases.flatMap((lc) => [lc.clause.id, ...(lc.case.kind === 'request' && lc.case.prefer ? [lc.case.prefer.spec] : [])]));
    const unchecked = [...CLAUSES.values()].filter((c) => c.layer === 'text' && !cited.has(c.id)).map((c) => `${c.id} ${c.title}`);
    expect(unchecked).toEqual([]);
  });

  it('every clause is rendered in protocol.md under the anchor reports link to, with its level', () => {
    for (const c of CLAUSES.values()) {
      expect(protocolMd, c.id).toContain(`<a id="${clauseAnchor(c.id)}"></a>**${c.id}. ${c.title}**`);
      expect(levelOf(c)).toBe(c.layer === 'reading' ? 'should' : 'must');
    }
  });
});
