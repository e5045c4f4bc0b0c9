// v0.1.7's event cases run only against a server that advertises the events they subscribe to: a
// server without them gets "unimplemented", never a failure; one with them is judged. Against the
// generated v0.1.7 session (no handlers: the protocol and session topics only).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../conformance/lib/load';
import { selectCases } from '../../conformance/lib/select';
import { runAgainstServer } from '../../conformance/lib/session';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { SERVER_PROTOCOL as V016 } from '../../generated/v0.1.6/server';
import { type Handlers, SERVER_PROTOCOL } from '../../generated/v0.1.7/server';
import { createIdeaServer, type RunningIdeaServer } from '../../runtime/idea-server';

const FILES = '/app/vscode/files/changed';
const EDITOR = '/app/vscode/editor/changed';
const IDS = [
  'events/files-changed-after-replace',
  'events/subscribe-unknown-event',
  'protocol/cancel-unknown-ignored',
  'protocol/cancel-malformed',
];

describe('v0.1.7 event and cancel cases', () => {
  let tmp: string;
  let ws: string;
  const servers: RunningIdeaServer[] = [];
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'conformance-v017-'));
    ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  async function verdicts(events: string[] | undefined, withReplace = false): Promise<Record<string, string>> {
    const server = await createIdeaServer({
      protocol: SERVER_PROTOCOL,
      port: 0,
      auth: { required: false },
      // One topic to send requests to (the cancel cases send theirs to the first advertised one).
      handlers: () => ({
        fsFindFiles: async () => ({ files: [], totalCount: 0 }),
        ...(withReplace ? { editReplace: async () => ({ replacedCount: 1, affectedFiles: [] }) } : {}),
      }),
      workspaces: () => [ws],
      ...(events ? { session: { events } } : {}),
    });
    servers.push(server);
    const all = loadCases();
    const summary = await runAgainstServer({
      url: server.url,
      token: 'unused',
      workspace: ws,
      cases: selectCases(all, { ids: IDS }),
      allIds: new Set(all.map((c) => c.case.id)),
    });
    return Object.fromEntries(summary.results.map((r) => [r.id, `${r.verdict}${r.reason ? `: ${r.reason}` : ''}`]));
  }

  it('a server with no events: the event cases are unimplemented, the cancel cases judged', async () => {
    const v = await verdicts(undefined);
    expect(v['events/files-changed-after-replace']).toMatch(/^unimplemented/);
    expect(v['events/subscribe-unknown-event']).toMatch(/^unimplemented: .*events\/subscribe/);
    expect(v['protocol/cancel-unknown-ignored']).toBe('pass');
    expect(v['protocol/cancel-malformed']).toBe('pass');
  });

  it('a server advertising files/changed but serving no edit/replace: subscribing is judged, the replace case needs its topic', async () => {
    const v = await verdicts([FILES]);
    expect(v['events/subscribe-unknown-event']).toBe('pass');
    expect(v['events/files-changed-after-replace']).toMatch(/^unimplemented: \/app\/vscode\/edit\/replace/);
  });

  it('a server serving edit/replace and pushing only editor/changed: the files/changed case is unimplemented, not failed', async () => {
    const v = await verdicts([EDITOR], true);
    expect(v['events/files-changed-after-replace']).toBe(
      `unimplemented: ${FILES} is not in the events the server advertises`,
    );
  });
});

/**
 * protocol/cancel-in-flight against edit/find handlers that model a server with one regex worker: the
 * catastrophic pattern holds it until aborted (or, leaky, for 10 s whatever happens), the follow-up
 * search needs it too.
 */
describe('protocol/cancel-in-flight', () => {
  const ID = 'protocol/cancel-in-flight';
  let tmp: string;
  let ws: string;
  const servers: RunningIdeaServer[] = [];
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'conformance-cancel-'));
    ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  function oneWorkerFind(leaky: boolean): Handlers['editFind'] {
    let worker: Promise<unknown> = Promise.resolve();
    const slow = (signal: AbortSignal) =>
      new Promise<void>((done) => {
        const t = setTimeout(done, 10_000);
        if (leaky) return;
        const stop = () => {
          clearTimeout(t);
          done();
        };
        if (signal.aborted) stop();
        else signal.addEventListener('abort', stop, { once: true });
      });
    return async ({ pattern }, ctx) => {
      const job = worker.then(() => (pattern.includes('(.+)+') ? slow(ctx.signal) : undefined));
      worker = job.catch(() => undefined);
      await job;
      if (pattern.includes('(.+)+')) return { matches: [], totalCount: 0 };
      const filePath = join(ws, 'text', 'search.txt');
      return { matches: [{ filePath, line: 6, character: 4, lineText: 'the needle is here' }], totalCount: 1 };
    };
  }

  async function verdict(protocol: typeof SERVER_PROTOCOL, editFind: Handlers['editFind']): Promise<string> {
    const server = await createIdeaServer({
      protocol,
      port: 0,
      auth: { required: false },
      handlers: () => ({ editFind }),
      workspaces: () => [ws],
    });
    servers.push(server);
    const all = loadCases();
    const summary = await runAgainstServer({
      url: server.url,
      token: 'unused',
      workspace: ws,
      cases: selectCases(all, { ids: [ID] }),
      allIds: new Set(all.map((c) => c.case.id)),
    });
    const r = summary.results[0]!;
    return `${r.verdict}${r.reason ? `: ${r.reason}` : ''}`;
  }

  it('a server whose cancelled work stops passes', async () => {
    expect(await verdict(SERVER_PROTOCOL, oneWorkerFind(false))).toBe('pass');
  });

  it('a server that answers CANCELLED but keeps the work running fails: the next search is late', async () => {
    expect(await verdict(SERVER_PROTOCOL, oneWorkerFind(true))).toMatch(/^fail: step\[9\] failed/);
  });

  it('a v0.1.6 server is not judged by it (no cancel frames before 0.1.7)', async () => {
    expect(await verdict(V016 as unknown as typeof SERVER_PROTOCOL, oneWorkerFind(true))).toBe(
      'skip: not applicable: since 0.1.7, the server speaks 0.1.6',
    );
  });
});
