// Steps, setup steps, transport actions and case kinds are dispatched through tables: one of a kind the
// runner does not know ends the case as an error naming it, never a silent skip (a skipped `expect` would
// let a case pass without checking what it says). The loader's schema refuses such fixtures, so these
// cases are loaded valid and then given the unknown part, as code building cases would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCase } from '../../conformance/lib/load';
import { runAgainstServer } from '../../conformance/lib/session';
import type { CaseResult, LoadedCase } from '../../conformance/lib/types';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { result, startScriptedServer } from './scripted-server';

const FIND_FILES = '/app/vscode/fs/findFiles';

let tmp: string;
let ws: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'conformance-dispatch-'));
  ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Answers every findFiles request with no files. */
async function run(lc: LoadedCase): Promise<CaseResult> {
  const server = await startScriptedServer({
    capabilities: [FIND_FILES],
    workspaces: [ws],
    onFrame(f, c) {
      if (f.topic === FIND_FILES) c.send(result(f, { files: [], totalCount: 0 }));
    },
  });
  try {
    const s = await runAgainstServer({ url: server.url, token: 'scripted', workspace: ws, cases: [lc] });
    expect(s.results).toHaveLength(1);
    return s.results[0]!;
  } finally {
    await server.close();
  }
}

const search = { send: { topic: FIND_FILES, requestId: 'q', params: { query: 'x' } } };
const found = { expect: { topic: FIND_FILES, requestId: 'q', result: { totalCount: 0 } } };

function exchange(steps: unknown[]): LoadedCase {
  return parseCase(
    JSON.stringify({
      id: 'protocol/dispatch',
      description: 'x',
      spec: 'T7',
      since: '0.1.6',
      workspace: 'any',
      kind: 'exchange',
      topic: FIND_FILES,
      handshake: 'auto',
      timeoutMs: 2000,
      steps,
    }),
    'protocol/dispatch.json',
  );
}

/** A valid case whose steps then get `extra` (the loader would refuse it as written). */
function withSteps(extra: unknown[], base: unknown[] = [search, found]): LoadedCase {
  const lc = exchange(base);
  (lc.case as { steps: unknown[] }).steps.push(...extra);
  return lc;
}

describe('exchange steps', () => {
  it('runs a case of known steps (the control: the dispatch itself passes)', async () => {
    const r = await run(exchange([search, found]));
    expect(r.checks.filter((c) => !c.ok)).toEqual([]);
    expect(r.verdict).toBe('pass');
  });

  it('ends the case as an error at a step of an unknown kind, naming the step and its keys', async () => {
    const r = await run(withSteps([{ expectEventually: { topic: FIND_FILES } }]));
    expect(r.verdict).toBe('error');
    expect(r.reason).toMatch(/^step\[2\] failed: unknown step kind \(keys \["expectEventually"\]\)/);
  });

  it('does so inside an expectOneOf alternative too', async () => {
    const lc = exchange([
      search,
      { expectOneOf: [{ expect: found.expect, then: [search] }, { expect: { topic: 'never' } }] },
    ]);
    const steps = (lc.case as { steps: { expectOneOf?: { then?: unknown[] }[] }[] }).steps;
    steps[1]!.expectOneOf![0]!.then!.push({ bogus: true });
    const r = await run(lc);
    expect(r.verdict).toBe('error');
    expect(r.reason).toMatch(/^step\[1\]\.then\[1\] failed: unknown step kind/);
  });

  it('refuses a step of two kinds and a key its kind does not take', async () => {
    const two = await run(withSteps([{ send: {}, sendText: 'x' }]));
    expect(two.verdict).toBe('error');
    expect(two.reason).toContain('a step has one kind, this one has 2: send, sendText');
    const extra = await run(withSteps([{ ...found, withinMs: 10 }], [search]));
    expect(extra.verdict).toBe('error');
    expect(extra.reason).toContain('a expect step does not take withinMs');
  });
});

describe('setup steps, transport actions and case kinds', () => {
  it('ends a request case at a setup step of an unknown kind', async () => {
    const lc = parseCase(
      JSON.stringify({
        id: 'protocol/dispatch-setup',
        description: 'x',
        spec: 'T7',
        since: '0.1.6',
        workspace: 'any',
        kind: 'request',
        request: { topic: FIND_FILES, params: { query: 'x' } },
        expect: { result: { totalCount: 0 } },
      }),
      'protocol/dispatch-setup.json',
    );
    (lc.case as { setup?: unknown[] }).setup = [{ wait: 5 }];
    const r = await run(lc);
    expect(r.verdict).toBe('error');
    expect(r.reason).toMatch(/^setup\[0\] failed: unknown step kind \(keys \["wait"\]\)/);
  });

  it('ends a transport case of an unknown action (it was run as an oversize frame)', async () => {
    const lc = parseCase(
      JSON.stringify({
        id: 'security/dispatch-action',
        description: 'x',
        spec: 'H4',
        since: '0.1.6',
        workspace: 'any',
        kind: 'transport',
        action: 'oversize-frame',
        bytes: 100,
        afterHandshake: false,
        expectCloseCode: 1009,
      }),
      'security/dispatch-action.json',
    );
    (lc.case as { action: string }).action = 'slow-loris';
    const r = await run(lc);
    expect(r.verdict).toBe('error');
    expect(r.reason).toMatch(/^action failed: unknown transport action "slow-loris"/);
  });

  it('ends a case of an unknown kind', async () => {
    const lc = exchange([search, found]);
    (lc.case as { kind: string }).kind = 'replay';
    const r = await run(lc);
    expect(r.verdict).toBe('error');
    expect(r.reason).toMatch(/^kind failed: unknown case kind "replay"/);
  });
});
