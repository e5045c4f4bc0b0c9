// 50 concurrent clients × 1,000 pipelined requests of mixed topics against the generated server over
// real ws on 127.0.0.1 (in-process handlers, some answering late so replies come out of order): zero
// lost, duplicated or mismatched replies. A second run goes through the generated client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatSummary, nowMs, summarize } from '../../bench/lib/stats';
import { connect } from '../../generated/v0.1.6/client';
import { until } from '../support/wait';
import { validRequests } from './bad-frames';
import { generatedValidator, spec, startTestServer, type TestServer, TOKEN, trivialHandlers } from './harness';
import { type LoadRequest, markerCheck, runLoad } from './load-driver';
import { marker } from './results';

const o = spec();
const validateSuccess = generatedValidator('ResponseSuccess');
const resultValidators = new Map(o.index.topics.map((t) => [t.topic, generatedValidator(`${t.typeName}Result`)]));
const validateResult = (topic: string, r: unknown) => resultValidators.get(topic)!(r);

// Mixed topics, each with several distinct params so markers differ between neighbours.
const MIX: LoadRequest[] = validRequests(o).flatMap((v) =>
  [0, 1, 2].map((k) => ({
    topic: v.topic,
    params: { ...(v.params as object), zzSeq: k }, // unknown params fields are accepted and ignored (index.json)
  })),
);

// Every third topic answers after a timer, so replies overtake each other on one connection.
const slowTopics = new Set(o.index.topics.filter((_, i) => i % 3 === 0).map((t) => t.topic));
let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({
    validateResults: true,
    handlers: trivialHandlers((topic, run) =>
      slowTopics.has(topic) ? new Promise((r) => setTimeout(r, Math.random() * 3)).then(run) : run(),
    ),
  });
});
afterAll(async () => {
  await srv.close();
});

describe('load', () => {
  it('50 clients × 1,000 pipelined requests: nothing lost, duplicated or mismatched', async () => {
    const r = await runLoad({
      url: srv.url,
      token: TOKEN,
      clients: 50,
      perClient: 1000,
      window: 64,
      requests: MIX,
      check: markerCheck(validateSuccess, validateResult),
    });
    console.log(
      `[load] ${r.answered}/${r.sent} answered in ${r.seconds.toFixed(2)} s (${Math.round(r.answered / r.seconds)} req/s); latency ${formatSummary(r.latency)}`,
    );
    expect(r.problems).toEqual([]);
    expect({ sent: r.sent, answered: r.answered, lost: r.lost, duplicated: r.duplicated, unknown: r.unknown }).toEqual({
      sent: 50_000,
      answered: 50_000,
      lost: 0,
      duplicated: 0,
      unknown: 0,
    });
    await until('the server to close every session', () => srv.server.clientCount === 0, {
      detail: () => srv.server.clientCount,
    });
    expect(srv.sessions.every((s) => s.pendingRequests === 0 && s.state === 'closed')).toBe(true);
  }, 120_000);

  it('the generated client under the same load: every promise settles with its own result', async () => {
    const t0 = nowMs();
    const lat: number[] = [];
    const clients = await Promise.all(
      Array.from({ length: 50 }, () => connect({ url: srv.url, token: TOKEN, validate: true, timeoutMs: 30_000 })),
    );
    const wrong: string[] = [];
    await Promise.all(
      clients.map(async (c, ci) => {
        let n = 0;
        const lane = async () => {
          while (n < 1000) {
            const req = MIX[(ci + n++) % MIX.length]!;
            const t = nowMs();
            const result = (await c.request(req.topic as any, req.params as any)) as Record<string, unknown>;
            lat.push(nowMs() - t);
            if ('totalCount' in result && result.totalCount !== marker(req.params)) wrong.push(req.topic);
          }
        };
        await Promise.all(Array.from({ length: 64 }, lane));
        expect(c.inFlight).toBe(0);
      }),
    );
    console.log(
      `[load] generated client: ${lat.length} requests in ${((nowMs() - t0) / 1000).toFixed(2)} s; latency ${formatSummary(summarize(lat))}`,
    );
    expect(wrong).toEqual([]);
    expect(lat.length).toBe(50_000);
    await Promise.all(clients.map((c) => c.close()));
  }, 120_000);
});
