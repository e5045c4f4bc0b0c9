// Scaled-down load against our extension in a real VS Code on the fixture workspace: 8 clients × 150
// pipelined read-only requests of mixed topics. Every reply must be the reply to its own request:
// each distinct request has a reference answer taken beforehand, and a reply that differs from it is a
// mismatch. Zero lost, duplicated or mismatched replies; latency percentiles printed.
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatSummary } from '../../bench/lib/stats';
import { type LiveFixture, startLiveFixture } from '../extension/helpers';
import { generatedValidator, spec } from './harness';
import { type LoadRequest, runLoad } from './load-driver';

const o = spec();
const validateSuccess = generatedValidator('ResponseSuccess');
const resultValidators = new Map(o.index.topics.map((t) => [t.topic, generatedValidator(`${t.typeName}Result`)]));

// Read-only requests whose answers do not change while nothing is edited, each distinct.
const MIX: LoadRequest[] = [
  ...['shapes', 'main', 'format', 'journal', 'search'].map((query) => ({
    topic: '/app/vscode/fs/findFiles',
    params: { query },
  })),
  ...['needle', 'alpha', 'Circle', 'order-\\d+'].map((pattern, i) => ({
    topic: '/app/vscode/edit/find',
    params: { pattern, isRegex: i === 3 },
  })),
  ...['src/shapes.ts', 'src/main.ts', 'src/format.ts'].map((filePath) => ({
    topic: '/app/vscode/nav/symbols',
    params: { filePath },
  })),
  ...['src/shapes.ts', 'src/config.ts'].map((filePath) => ({
    topic: '/app/vscode/history/list',
    params: { filePath },
  })),
  { topic: '/app/vscode/history/diff', params: { filePath: 'src/config.ts', fromIndex: 0, toIndex: 1 } },
  { topic: '/app/vscode/nav/definition', params: { filePath: 'src/main.ts', line: 7, character: 2 } },
];

let fx: LiveFixture;
const reference = new Map<string, unknown>();
const key = (r: LoadRequest) => JSON.stringify([r.topic, r.params]);

beforeAll(async () => {
  fx = await startLiveFixture();
  // Reference answers, one request at a time (this also warms up tsserver and git).
  for (const r of MIX) reference.set(key(r), await fx.client.request(r.topic as any, r.params as any));
});
afterAll(async () => {
  await fx?.close();
});

describe('load against the live extension', () => {
  it('8 clients × 150 pipelined mixed requests: nothing lost, duplicated or mismatched', async () => {
    const r = await runLoad({
      url: fx.host.url,
      token: fx.host.token,
      clients: 8,
      perClient: 150,
      window: 8,
      requests: MIX,
      timeoutMs: 60_000,
      check: (req, reply) => {
        if (!validateSuccess(reply)) return `not a success: ${JSON.stringify(reply).slice(0, 200)}`;
        if (!resultValidators.get(req.topic)!(reply.result)) return 'result does not match its schema';
        return isDeepStrictEqual(reply.result, reference.get(key(req)))
          ? undefined
          : "result differs from this request's reference answer";
      },
    });
    console.log(
      `[load.live] ${r.answered}/${r.sent} answered in ${r.seconds.toFixed(2)} s (${Math.round(r.answered / r.seconds)} req/s); latency ${formatSummary(r.latency)}`,
    );
    expect(r.problems).toEqual([]);
    expect({ sent: r.sent, answered: r.answered, lost: r.lost, duplicated: r.duplicated, unknown: r.unknown }).toEqual({
      sent: 1200,
      answered: 1200,
      lost: 0,
      duplicated: 0,
      unknown: 0,
    });
    // Still serving afterwards.
    expect(await fx.client.request(MIX[0]!.topic as any, MIX[0]!.params as any)).toEqual(reference.get(key(MIX[0]!)));
  }, 300_000);
});
