// The security cases that take more than one frame: the bound on requests in flight (H9), and a
// workspace full of traps that no request may run (H19). Dispatched from transport-cases.ts.
import { type FiredTrap, firedTraps, type PlantedTraps, readTrapManifest, TRAPS_MANIFEST } from '../workspace/traps';
import {
  Abort,
  type CaseContext,
  cut,
  describeIncoming,
  openForCase,
  type RunContext,
  safeParse,
  substituteOrAbort,
} from './case-context';
import type { Connection } from './connection';
import { match } from './match';
import type { Check, TransportCase } from './types';
import { placeholdersIn, substitute } from './vars';

/** Floods one in-flight-bound attempt may send: `count`, then twice, then four times as many. */
const IN_FLIGHT_ATTEMPTS = 3;

/**
 * H9: `count` copies of one request at once. Every one must be answered exactly once, some (those over
 * the server's bound) with the refusal, and the connection must still serve the request afterwards.
 * A server may answer as fast as the copies arrive, so that fewer than its bound are ever in flight:
 * then nothing was over the bound, and the flood is sent again on a new connection, twice as large, up
 * to IN_FLIGHT_ATTEMPTS floods. A server without a bound refuses none of them.
 */
export async function inFlightBound(
  ctx: CaseContext,
  c: Extract<TransportCase, { action: 'in-flight-bound' }>,
): Promise<void> {
  const req = substituteOrAbort(c.request, ctx.vars, 'request variables');
  const refusal = substitute(
    {
      topic: req.topic,
      requestId: { $type: 'string' },
      error: { code: c.expectRefusal.code, message: c.expectRefusal.message ?? { $type: 'string' } },
    },
    ctx.vars,
  );
  const floods: number[] = [];
  let conn!: Connection;
  let refused = 0;
  let firstOther: string | undefined;
  const strays: string[] = [];
  for (let attempt = 0; attempt < IN_FLIGHT_ATTEMPTS && refused === 0 && strays.length === 0; attempt++) {
    const count = c.count * 2 ** attempt;
    floods.push(count);
    ctx.sent = `${floods.join(', then ')} ${req.topic} requests at once after the handshake (a new connection each), then one more`;
    if (conn) await conn.close();
    conn = await openForCase(ctx);
    await ctx.handshake(conn);
    const ids = new Set<string>();
    const frames: string[] = [];
    for (let i = 0; i < count; i++) {
      ids.add(`in-flight-${i}`);
      frames.push(JSON.stringify({ topic: req.topic, requestId: `in-flight-${i}`, params: req.params ?? {} }));
    }
    for (const f of frames) conn.sendText(f);
    while (ids.size > 0) {
      const got = await conn.next(ctx.timeoutMs);
      if (got?.kind !== 'frame') {
        throw new Abort({
          name: 'answers',
          ok: false,
          detail: `${count - ids.size} of ${count} requests answered, then ${describeIncoming(got)}`,
        });
      }
      const frame = safeParse(got.text) as { requestId?: unknown; error?: unknown } | undefined;
      const id = typeof frame?.requestId === 'string' ? frame.requestId : '';
      if (!ids.delete(id)) {
        strays.push(cut(got.text, 200));
        if (strays.length > 10) break;
        continue;
      }
      if (match(refusal, frame).ok) refused++;
      else if (frame && 'error' in frame) firstOther ??= got.text;
    }
  }
  ctx.checks.push({
    name: 'every request answered once',
    ok: strays.length === 0,
    detail: strays.length
      ? `answers to no outstanding request (a repeated or unknown requestId): ${strays.join('\n')}`
      : undefined,
  });
  ctx.checks.push({
    name: 'bound',
    ok: refused > 0,
    detail:
      refused > 0
        ? undefined
        : `none of ${floods.join(', then ')} requests sent at once was refused as over a bound on requests in flight (expected ${JSON.stringify(c.expectRefusal)})${firstOther ? `; an other error: ${firstOther}` : ''}`,
  });
  await ctx.request(conn, { request: req }, 'afterwards', { result: { $type: 'object' } }, false);
}

/**
 * H19: `requests` on the fixture workspace with its traps planted (workspace/traps.ts), each only where the
 * server advertises its topic; then no trap may have left a marker. A skipped request's `bind` variables
 * are unavailable, and so skipped is every later request that needs one. Returns a skip reason when the
 * server serves none of the topics and no trap ran.
 */
export async function noTrapsFired(
  ctx: CaseContext,
  c: Extract<TransportCase, { action: 'no-traps-fired' }>,
  run: RunContext,
): Promise<string | undefined> {
  const dir = ctx.target.workspaceDir;
  const rebuild = (why: string) =>
    new Abort(
      {
        name: 'setup: trap manifest',
        ok: false,
        detail: `rebuild the workspace with \`idea-conformance workspace ${dir}\` and open it in the server again: ${why}`,
      },
      true,
    );
  let manifest: PlantedTraps | undefined;
  try {
    manifest = readTrapManifest(dir);
  } catch (err) {
    throw rebuild((err as Error).message);
  }
  // Never a silent pass: without the manifest there are no traps (or none the runner can read).
  if (!manifest)
    throw rebuild(`it has no ${TRAPS_MANIFEST}, so an older builder made it, without the traps this case needs`);
  const served = new Set(run.server.capabilities);
  const conn = await openForCase(ctx);
  await ctx.handshake(conn);
  const unavailable = new Set<string>();
  const skipped: string[] = [];
  let sent = 0;
  for (const [i, step] of c.requests.entries()) {
    const topic = step.request.topic;
    const short = topic.replace('/app/vscode/', '');
    const needs = placeholdersIn(step.request).find((v) => unavailable.has(v));
    if (!served.has(topic) || needs) {
      skipped.push(needs ? `${short} (needs \${${needs}})` : short);
      for (const v of Object.keys(step.bind ?? {})) unavailable.add(v);
      continue;
    }
    sent++;
    try {
      await ctx.request(conn, step, `requests[${i}] (${short})`, step.expect, false);
    } catch (err) {
      if (!(err instanceof Abort) || err.setup) throw err;
      ctx.checks.push(err.check);
      for (const v of Object.keys(step.bind ?? {})) unavailable.add(v);
      if (err.noAnswer) break; // what arrives later cannot be told apart: go on to the markers
    }
  }
  ctx.sent = `${sent} of ${c.requests.length} requests (to the topics the server advertises${skipped.length ? `; skipped: ${skipped.join(', ')}` : ''}), then the markers of ${manifest.traps.length} traps in ${manifest.markerDir}`;
  const fired = firedTraps(manifest.markerDir);
  if (sent === 0 && fired.length === 0)
    return `the server advertises none of the topics this case sends (${skipped.join(', ')})`;
  ctx.checks.push(trapsCheck(manifest, fired));
  return undefined;
}

function trapsCheck(manifest: PlantedTraps, fired: readonly FiredTrap[]): Check {
  if (fired.length === 0) return { name: 'no trap ran', ok: true };
  const what = new Map(manifest.traps.map((t) => [t.id, t.what]));
  const each = fired.map(
    (f) =>
      `  • ${f.id}: ${what.get(f.id) ?? 'a marker in the trap folder'}\n${f.detail
        .split('\n')
        .map((l) => `      ${l}`)
        .join('\n')}`,
  );
  return {
    name: 'no trap ran',
    ok: false,
    detail: `${fired.length} of the workspace's traps ran: the server ran or loaded code the workspace supplies or names (markers in ${manifest.markerDir}):\n${each.join('\n')}`,
  };
}
