// idea-conformance fuzz generating name paths and locators (0.1.8): against an in-test server that matches
// name paths as clause T43 says, with one flaw planted at a time, each found with a fixed seed and written as
// a case the suite loads; the clean server yields nothing. And the pieces: suffixes, the parser's labels.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { malformedLabel, namesCharacter, suffixesOf } from '../../conformance/fuzz/name-paths';
import { fuzz } from '../../conformance/fuzz/run';
import { loadCases } from '../../conformance/lib/load';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { NAME_PATH_TOKEN, type NamePathPlant, startNamePathServer } from './name-path-server';

let tmp: string;
let ws: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'conformance-fuzz-names-'));
  ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const TOPICS = ['nav/symbols', 'nav/findSymbol', 'nav/definition'].map((t) => `/app/vscode/${t}`);

async function fuzzNames(plant: NamePathPlant | undefined, out?: string) {
  const server = await startNamePathServer(ws, plant);
  const lines: string[] = [];
  try {
    const summary = await fuzz({
      url: server.url,
      token: NAME_PATH_TOKEN,
      workspace: ws,
      seed: 7,
      timeMs: 4000,
      shrinkMs: 4000,
      timeoutMs: 1000,
      frameLimit: false,
      topics: TOPICS,
      log: (l) => lines.push(l),
      ...(out ? { outDir: out } : {}),
    });
    return { summary, lines };
  } finally {
    await server.close();
  }
}

const sigs = (s: { findings: { signature: string }[] }) => JSON.stringify(s.findings.map((f) => f.signature));

describe('fuzz names symbols and judges the answers by T43, T44 and T46', () => {
  it('a clean server: every symbol of the file named, no finding', async () => {
    const { summary, lines } = await fuzzNames(undefined);
    expect(lines.find((l) => l.startsWith('name paths:'))).toMatch(
      /^name paths: 12 symbols of the workspace to name \(\d+ ms to ask\)$/,
    );
    expect(summary.findings.map((f) => `${f.signature}: ${f.problems[0]!.detail}`)).toEqual([]);
    expect(summary.trials).toBeGreaterThan(20);
  }, 30_000);

  it('a malformed name path refused without saying where', async () => {
    const out = join(tmp, 'where');
    const { summary } = await fuzzNames('where-missing', out);
    const f = summary.findings.find((x) => x.problems[0]!.oracle === 'name-path');
    expect(f, sigs(summary)).toBeDefined();
    expect(f!.input.namePath?.kind).toBe('malformed');
    expect(f!.problems[0]!.clause).toBe('T43');
    expect(f!.problems[0]!.detail).toMatch(/does not say where/);
    // Written as a case the suite loads: INVALID_REQUEST whose message names the parser's character.
    const at = f!.input.namePath?.kind === 'malformed' ? f!.input.namePath.at : -1;
    expect(f!.fixture.expect).toEqual({
      error: { code: 'INVALID_REQUEST', message: { $match: `(^|\\D)${at}(\\D|$)` } },
    });
    expect(loadCases(out).map((c) => c.case.id)).toContain(f!.fixture.id);
  }, 30_000);

  it("own name paths without an index, so that an overload's names three symbols", async () => {
    const { summary } = await fuzzNames('own-unindexed');
    const f = summary.findings.find((x) => x.signature === '/app/vscode/nav/findSymbol name-path:own name-path');
    expect(f, sigs(summary)).toBeDefined();
    expect(f!.input.namePath?.kind).toBe('own');
    expect(f!.problems[0]!.detail).toMatch(/matches that symbol alone; found [23]/);
  }, 30_000);

  it('a relative name path matched from the top of the file', async () => {
    const { summary } = await fuzzNames('anchored-suffix');
    const f = summary.findings.find((x) => x.input.namePath?.kind === 'suffix');
    expect(f, sigs(summary)).toBeDefined();
    expect(f!.problems[0]!.detail).toMatch(/is a suffix of/);
    expect(f!.fixture.expect).toMatchObject({ result: { symbols: { $contains: [{ namePath: expect.any(String) }] } } });
  }, 30_000);

  it('a nav/findSymbol answer over its budget', async () => {
    const { summary } = await fuzzNames('budget-ignored');
    const f = summary.findings.find((x) => x.problems[0]!.oracle === 'budget');
    expect(f, sigs(summary)).toBeDefined();
    expect(f!.problems[0]!.clause).toBe('T46');
    expect((f!.input.params as { includeBody?: boolean }).includeBody).toBe(true);
    // No match rule holds a length: the JSON report only.
    expect(f!.file).toBeUndefined();
    expect(f!.fixture.note).toMatch(/length of a result/);
  }, 30_000);

  it('a locator with namePath and line or character answered', async () => {
    const { summary } = await fuzzNames('both-forms-accepted');
    const f = summary.findings.find((x) => x.input.namePath?.kind === 'both-forms');
    expect(f, sigs(summary)).toBeDefined();
    expect(f!.problems[0]!.clause).toBe('T44');
    expect(f!.fixture.expect).toEqual({ error: { code: 'INVALID_REQUEST' } });
  }, 30_000);
});

describe('name-path pieces', () => {
  it('suffixes drop the anchor and leading segments, escapes and indices kept', () => {
    expect(suffixesOf("/Ledger/'in\\/out'")).toEqual(["Ledger/'in\\/out'", "'in\\/out'"]);
    expect(suffixesOf('/Audit/Entry/describe[1]')).toEqual([
      'Audit/Entry/describe[1]',
      'Entry/describe[1]',
      'describe[1]',
    ]);
  });

  it('labels a malformed name path with the character the parser names', () => {
    expect(malformedLabel('Ledger//record')).toMatchObject({ kind: 'malformed', at: 7 });
    expect(malformedLabel('re]cord')).toMatchObject({ kind: 'malformed', at: 2 });
    expect(malformedLabel('Ledger/record[1]')).toBeUndefined();
  });

  it('finds the character as a number of its own in a message', () => {
    expect(namesCharacter('malformed name path: empty segment at character 7', 7)).toBe(true);
    expect(namesCharacter('an index of 17 digits', 7)).toBe(false);
    expect(namesCharacter('7: bad', 7)).toBe(true);
  });
});
