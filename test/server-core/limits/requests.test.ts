// The per-connection session hook (runtime aroundRequest) through a real ServerSession: the client each
// request's signal is bound to, the per-server bound on requests in flight (with a small reserve per
// connection), slots given back however a handler ends.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Handlers, ServerSession } from '../../../generated/v0.1.6/server';
import { clientOf } from '../../../server-core/limits/client-context';
import { configureLimits, LIMIT_RANGES, limits } from '../../../server-core/limits/config';
import { gatedAsClient, RESERVED_PER_CONNECTION, RequestGate } from '../../../server-core/limits/requests';
import { tick, until } from '../../support/wait';

const TOKEN = 'token';
const FIND = '/app/vscode/edit/find';
const FILES = '/app/vscode/fs/findFiles';

/** One connection's session with the gate as its request hook; its answers by requestId. */
function connection(handlers: Partial<Handlers>, clientId: string, gate: RequestGate) {
  const answers = new Map<string, Record<string, unknown>>();
  const session = new ServerSession({
    handlers,
    auth: { required: true, token: TOKEN },
    workspaces: () => [],
    send: (f) => {
      const frame = JSON.parse(f) as Record<string, unknown>;
      if (typeof frame.requestId === 'string') answers.set(frame.requestId, frame);
    },
    close: () => undefined,
    aroundRequest: (request, call) => gatedAsClient(gate, clientId, request, call),
  });
  session.onFrame(JSON.stringify({ type: 'handshake', token: TOKEN }));
  let n = 0;
  const request = (topic: string, params: Record<string, unknown>): string => {
    const requestId = `${clientId}-${++n}`;
    session.onFrame(JSON.stringify({ topic, requestId, params }));
    return requestId;
  };
  return {
    find: () => request(FIND, { pattern: 'x' }),
    files: () => request(FILES, { query: 'x' }),
    answer: (id: string) => answers.get(id),
  };
}

const errorOf = (frame: Record<string, unknown> | undefined) =>
  (frame?.error as { message?: string } | undefined)?.message;

describe('gatedAsClient (the session hook)', () => {
  it("binds each request's signal to its connection", async () => {
    const handlers: Partial<Handlers> = {
      editFind: async (_params, ctx) => {
        await tick(); // the three requests are in flight together
        return {
          matches: [{ filePath: '/w/a', line: 0, character: 0, lineText: clientOf(ctx.signal) }],
          totalCount: 1,
        };
      },
    };
    const gate = new RequestGate(() => 100);
    const a = connection(handlers, 'conn-a', gate);
    const b = connection(handlers, 'conn-b', gate);
    const ids = [a.find(), b.find(), a.find()];
    await until('the three answers', () => ids.every((id) => a.answer(id) ?? b.answer(id)));
    const who = ids.map((id) => {
      const r = (a.answer(id) ?? b.answer(id))?.result as { matches: { lineText: string }[] };
      return r.matches[0]!.lineText;
    });
    expect(who).toEqual(['conn-a', 'conn-b', 'conn-a']);
    expect(clientOf(new AbortController().signal)).toBe('internal');
  });

  it('refuses a request over the server bound with a clear error, admits light connections, and counts down on errors', async () => {
    const gate = new RequestGate(() => 16);
    let open: (() => void)[] = [];
    const handlers: Partial<Handlers> = {
      editFind: () => new Promise((r) => open.push(() => r({ matches: [], totalCount: 0 }))),
      fsFindFiles: async () => {
        throw new Error('handler failed');
      },
    };
    const heavy = connection(handlers, 'heavy', gate);
    const light = connection(handlers, 'light', gate);
    for (let i = 0; i < 16; i++) heavy.find();
    await tick();
    expect(gate.inFlight).toBe(16);
    const refused = heavy.find();
    await tick();
    expect(errorOf(heavy.answer(refused))).toMatch(
      /too many requests in flight on this server \(limit 16, idea\.server\.limits\.maxRequestsInFlight\)/,
    );
    expect(heavy.answer(refused)).toMatchObject({ error: { code: 'HANDLER_ERROR' } });
    // A connection with fewer than RESERVED_PER_CONNECTION in flight still gets in.
    const reserved = Array.from({ length: RESERVED_PER_CONNECTION }, () => light.find());
    await tick();
    const over = [light.find(), light.files()];
    await tick();
    for (const id of over) expect(errorOf(light.answer(id))).toMatch(/too many requests in flight/);
    for (const o of open) o();
    open = [];
    await tick();
    expect(gate.inFlight).toBe(0);
    for (const id of reserved) expect(light.answer(id)).toMatchObject({ result: { totalCount: 0 } });
    const failed = light.files();
    await tick();
    expect(errorOf(light.answer(failed))).toBe('handler failed');
    expect(gate.inFlight).toBe(0);
  });
});

// clause H10: the work limits are machine-scoped settings with their documented defaults and ranges.
describe('limit settings', () => {
  it('package.json declares every limit, machine-scoped, with the same default and range', () => {
    const props = JSON.parse(readFileSync(new URL('../../../extension/package.json', import.meta.url), 'utf8'))
      .contributes.configuration.properties;
    for (const r of Object.values(LIMIT_RANGES)) {
      expect(props[r.setting], r.setting).toMatchObject({
        type: 'integer',
        scope: 'machine',
        default: r.dflt,
        minimum: r.min,
        maximum: r.max,
      });
    }
  });

  it('clamps values to their range, ignores non-integers, and resets what is not given', () => {
    try {
      const l = configureLimits({
        maxChildProcesses: 0,
        regexTimeBudgetMs: 1e12,
        regexWorkers: 2.5,
        maxLineBytes: '9',
      });
      expect(l.maxChildProcesses).toBe(1);
      expect(l.regexTimeBudgetMs).toBe(LIMIT_RANGES.regexTimeBudgetMs.max);
      expect(l.regexWorkers).toBe(LIMIT_RANGES.regexWorkers.dflt);
      expect(l.maxLineBytes).toBe(LIMIT_RANGES.maxLineBytes.dflt);
      configureLimits({ maxChildProcesses: 3 });
      expect(limits().regexTimeBudgetMs).toBe(LIMIT_RANGES.regexTimeBudgetMs.dflt);
    } finally {
      configureLimits({});
    }
  });
});
