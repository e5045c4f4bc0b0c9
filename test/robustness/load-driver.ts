// Drives many pipelined clients against a server and accounts for every reply: lost, duplicated,
// mismatched (wrong topic or wrong result for the request) or invalid replies are counted, never
// tolerated. Shared by the in-process load test and its live version.
import { randomUUID } from 'node:crypto';
import { nowMs, type Summary, summarize } from '../../bench/lib/stats';
import { RawClient } from './raw-client';
import { marker } from './results';

export interface LoadRequest {
  topic: string;
  params: unknown;
}
export interface LoadOptions {
  url: string;
  token: string;
  clients: number;
  perClient: number;
  /** Requests in flight per client. */
  window: number;
  /** The mix, cycled per client from a different offset. */
  requests: LoadRequest[];
  /** Checks one reply; returns a problem or undefined. */
  check(req: LoadRequest, reply: any): string | undefined;
  /** Per-reply timeout; a reply that never comes counts as lost. */
  timeoutMs?: number;
}

export interface LoadReport {
  sent: number;
  answered: number;
  lost: number;
  duplicated: number;
  unknown: number;
  problems: string[];
  latency: Summary;
  seconds: number;
}

export async function runLoad(o: LoadOptions): Promise<LoadReport> {
  const report = { sent: 0, answered: 0, lost: 0, duplicated: 0, unknown: 0, problems: [] as string[] };
  const lat: number[] = [];
  const problem = (p: string) => {
    if (report.problems.length < 50) report.problems.push(p);
  };
  const t0 = nowMs();
  const clients = await Promise.all(Array.from({ length: o.clients }, () => RawClient.open(o.url)));
  await Promise.all(
    clients.map(async (c) => {
      const hs = await c.handshake(o.token);
      if (!hs || hs.error) throw new Error(`handshake refused: ${JSON.stringify(hs)}`);
    }),
  );
  await Promise.all(
    clients.map(
      (c, ci) =>
        new Promise<void>((resolve) => {
          const pending = new Map<string, { req: LoadRequest; t: number }>();
          const done = new Set<string>();
          let next = 0;
          let timer: NodeJS.Timeout;
          const finish = () => {
            clearTimeout(timer);
            report.lost += pending.size;
            resolve();
          };
          const arm = () => {
            clearTimeout(timer);
            timer = setTimeout(finish, o.timeoutMs ?? 30_000);
          };
          const sendOne = () => {
            const req = o.requests[(ci + next++) % o.requests.length]!;
            const requestId = randomUUID();
            pending.set(requestId, { req, t: nowMs() });
            report.sent++;
            c.send(JSON.stringify({ topic: req.topic, requestId, params: req.params }));
          };
          c.onFrame = (f) => {
            arm();
            const id = f?.requestId;
            const p = typeof id === 'string' ? pending.get(id) : undefined;
            if (!p) {
              if (typeof id === 'string' && done.has(id)) {
                report.duplicated++;
                problem(`duplicate reply ${id}`);
              } else {
                report.unknown++;
                problem(`reply to no request: ${JSON.stringify(f).slice(0, 200)}`);
              }
              return;
            }
            pending.delete(id);
            done.add(id);
            report.answered++;
            lat.push(nowMs() - p.t);
            if (f.topic !== p.req.topic) problem(`reply ${id} has topic ${f.topic}, request was ${p.req.topic}`);
            const why = o.check(p.req, f);
            if (why) problem(`${p.req.topic} ${id}: ${why}`);
            if (next < o.perClient) sendOne();
            else if (pending.size === 0) {
              // Linger briefly so late duplicates are still seen.
              clearTimeout(timer);
              timer = setTimeout(finish, 200);
            }
          };
          arm();
          for (let i = 0; i < Math.min(o.window, o.perClient); i++) sendOne();
        }),
    ),
  );
  const seconds = (nowMs() - t0) / 1000;
  await Promise.all(clients.map((c) => c.close()));
  return { ...report, latency: summarize(lat), seconds };
}

/** The marker check for in-process trivial handlers (results.ts): totalCount encodes the params. */
export function markerCheck(
  validateSuccess: (x: unknown) => boolean,
  validateResult: (topic: string, r: unknown) => boolean,
) {
  return (req: LoadRequest, reply: any): string | undefined => {
    if (!validateSuccess(reply)) return `not a valid success reply: ${JSON.stringify(reply).slice(0, 200)}`;
    if (!validateResult(req.topic, reply.result)) return 'result does not match its schema';
    if ('totalCount' in reply.result && reply.result.totalCount !== marker(req.params))
      return 'result belongs to another request (marker mismatch)';
    return undefined;
  };
}
