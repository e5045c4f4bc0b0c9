// Every rule the suite enforces is traceable to a clause (the served version's clauses.json, rendered
// with anchors into its protocol.md), and every clause of the protocol text is checked.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLAUSES, CLAUSES_JSON, clauseAnchor, levelOf, PROTOCOL_MD } from '../../conformance/lib/clauses';
import { loadCases, parseCase } from '../../conformance/lib/load';

const cases = loadCases();

/** Clauses no fixture case checks: a client of a running server cannot observe them alone. */
const NOT_BY_CASES: Record<string, string> = {
  H8: 'floods of sockets and a configured host: test/runtime/admission.test.ts, test/extension/live.hardening.test.ts',
  H10: 'process slots and regex budgets under load: test/limits/, test/extension/live.limits.test.ts',
  H11: 'a workspace whose settings un-exclude .git: test/extension/live.hardening.test.ts',
  H12: 'crashes and failing disks mid-write: test/extension/write/',
  H13: 'a hostile repository config on disk: test/extension/live.hardening.test.ts',
  H14: 'file modes on the host: test/extension/live.hardening.test.ts, test/runtime/registry.test.ts',
  H16: "a rename reaching a file with unsaved editor changes: test/extension/rename.live.test.ts (its writes are H12's path)",
  // v0.1.7: a draft's own flag (a case would fail the version once released), and bounds no client
  // can observe in a bounded exchange.
  T34: 'draft versions say so: test/runtime/session-events.test.ts',
  H17: 'a subscriber that never reads: test/runtime/session-events.test.ts, test/extension/events.live.test.ts',
  H18: '10,000 subscribe/unsubscribe/cancel frames: test/runtime/session-events.test.ts',
};
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

  it('every clause a client can observe is checked by at least one case; the others say where they are tested', () => {
    const cited = new Set(
      cases.flatMap((lc) => [
        lc.clause.id,
        ...(lc.case.kind === 'request' && lc.case.prefer ? [lc.case.prefer.spec] : []),
      ]),
    );
    const unchecked = [...CLAUSES.values()]
      .filter((c) => !(c.id in NOT_BY_CASES) && !cited.has(c.id))
      .map((c) => `${c.id} ${c.title}`);
    expect(unchecked).toEqual([]);
    // The list stays honest: a clause that gets a case leaves it.
    expect(Object.keys(NOT_BY_CASES).filter((id) => cited.has(id) || !CLAUSES.has(id))).toEqual([]);
  });

  it('every clause is rendered in protocol.md under the anchor reports link to, with its level', () => {
    for (const c of CLAUSES.values()) {
      expect(protocolMd, c.id).toContain(`<a id="${clauseAnchor(c.id)}"></a>**${c.id}. ${c.title}**`);
      expect(levelOf(c)).toBe(c.layer === 'reading' ? 'should' : 'must');
    }
  });
});
