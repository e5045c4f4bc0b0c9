// The transport case kind: what happens on the wire around the protocol (upgrade headers, the bind
// address, frame size) and what the handshake claims (version T4, draft T34). One handler per `action`
// in ACTIONS; the security cases (bounds, traps) are in security-cases.ts. An action the table does
// not know ends the case as an error.
import { networkInterfaces } from 'node:os';
import { compareVersions } from '@idea-kit/spec-lib/version';
import { isPortOpen } from '../../runtime/loopback';
import { Abort, type CaseContext, describeIncoming, openForCase, type RunContext } from './case-context';
import { UpgradeRefusedError } from './connection';
import { KNOWN_RELEASES, releaseStatus } from './releases';
import { inFlightBound, noTrapsFired } from './security-cases';
import { knownKey } from './step-table';
import { spokenVersion, topicSince } from './topics';
import type { Check, TransportCase } from './types';
import { substitute } from './vars';

type Action = TransportCase['action'];
/** Runs one transport case; returns a skip reason, or undefined when the case ran. */
type ActionHandler<A extends Action> = (
  ctx: CaseContext,
  c: Extract<TransportCase, { action: A }>,
  run: RunContext,
) => Promise<string | undefined>;

const ACTIONS: { [A in Action]: ActionHandler<A> } = {
  async 'version-claim'(ctx, _c, run) {
    ctx.sent = `(the handshake read at the start: version ${JSON.stringify(run.server.version)}, ${run.server.capabilities.length} capabilities)`;
    ctx.checks.push(versionClaimCheck(run));
    return undefined;
  },
  async 'upgrade-with-headers'(ctx, c) {
    let outcome: string;
    const headers = substitute(c.headers, ctx.vars);
    ctx.sent = `WebSocket upgrade to ${ctx.target.url} with headers ${JSON.stringify(headers)}`;
    try {
      const { got, accepted } = await ctx.sendHandshake(await ctx.open(headers));
      outcome = accepted ? 'accepted' : `refused (${describeIncoming(got)})`;
    } catch (err) {
      outcome =
        err instanceof UpgradeRefusedError ? `refused (HTTP ${err.status})` : `refused (${(err as Error).message})`;
    }
    const ok = outcome.startsWith(c.expect);
    ctx.checks.push({
      name: 'transport',
      ok,
      detail: ok ? undefined : `expected the connection to be ${c.expect}, it was ${outcome}`,
    });
    return undefined;
  },
  async 'loopback-only'(ctx) {
    const port = Number(new URL(ctx.target.url).port);
    const addrs = externalAddresses();
    if (addrs.length === 0) return 'this machine has no non-loopback address to probe';
    const open: string[] = [];
    ctx.sent = `TCP connections to port ${port} on ${addrs.join(', ')}`;
    for (const a of addrs) if (await isPortOpen(port, 1000, a)) open.push(a);
    ctx.checks.push({
      name: 'transport',
      ok: open.length === 0,
      detail: open.length
        ? `port ${port} accepts connections on non-loopback addresses: ${open.join(', ')}`
        : undefined,
    });
    return undefined;
  },
  async 'oversize-frame'(ctx, c) {
    ctx.sent = `one text frame of ${c.bytes} bytes ${c.afterHandshake ? 'after' : 'before'} the handshake`;
    const conn = await openForCase(ctx);
    if (c.afterHandshake) await ctx.handshake(conn);
    const head = '{"topic":"/app/vscode/edit/find","requestId":"oversize","params":{"pattern":"';
    const tail = '"}}';
    conn.sendText(head + 'x'.repeat(Math.max(0, c.bytes - head.length - tail.length)) + tail);
    let got = await conn.next(ctx.timeoutMs);
    while (got?.kind === 'frame') got = await conn.next(ctx.timeoutMs); // a reply before the close is tolerated
    const ok = got?.kind === 'close' && got.code === c.expectCloseCode;
    ctx.checks.push({
      name: 'transport',
      ok,
      detail: ok
        ? undefined
        : `expected close ${c.expectCloseCode} after a ${c.bytes}-byte frame, ${describeIncoming(got)}`,
    });
    return undefined;
  },
  'draft-claim': (ctx) => draftClaim(ctx),
  'in-flight-bound': async (ctx, c) => {
    await inFlightBound(ctx, c);
    return undefined;
  },
  'no-traps-fired': (ctx, c, run) => noTrapsFired(ctx, c, run),
};

/** Returns a skip reason, or undefined when the case ran. */
export async function runTransportCase(
  ctx: CaseContext,
  c: TransportCase,
  run: RunContext,
): Promise<string | undefined> {
  knownKey(ACTIONS, c.action, 'action', 'transport action');
  return (ACTIONS[c.action] as ActionHandler<typeof c.action>)(ctx, c, run);
}

function externalAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((a): a is NonNullable<typeof a> => !!a && !a.internal && !a.address.startsWith('fe80'))
    .map((a) => a.address);
}

/** The version claim: the announced version against the topics served (T4). */
function versionClaimCheck(run: RunContext): Check {
  const { version: announced, capabilities } = run.server;
  const { newestTopic } = spokenVersion(announced, capabilities);
  if (!/^\d+\.\d+\.\d+$/.test(announced))
    return {
      name: 'version claim',
      ok: false,
      detail: `the handshake's version ${JSON.stringify(announced)} is not a protocol version`,
    };
  if (!newestTopic) return { name: 'version claim', ok: true };
  const newer = capabilities.filter((t) => compareVersions(topicSince(t) ?? '0.0.0', announced) > 0);
  return {
    name: 'version claim',
    ok: false,
    detail:
      `the handshake announces ${announced}, but the server serves ${newer.map((t) => `${t} (since ${topicSince(t)})`).join(', ')}: it speaks at least ${newestTopic.since}` +
      ` (cases and schemas were applied by ${run.version}; --assume-version overrides)`,
  };
}

/**
 * T34: a handshake of its own (its answer is schema-checked like any frame of the case), whose `draft`
 * must be true exactly when the version it announces is not released (releases.ts). Returns a skip
 * reason when the runner cannot tell: a version that is none, or newer than every one it knows.
 */
async function draftClaim(ctx: CaseContext): Promise<string | undefined> {
  const conn = await openForCase(ctx);
  ctx.sent = 'a handshake with the valid token';
  const { got, accepted: frame } = await ctx.sendHandshake(conn);
  if (!frame)
    throw new Abort(
      {
        name: 'setup: handshake',
        ok: false,
        detail: `handshake with the valid token failed: ${describeIncoming(got)}`,
      },
      true,
    );
  const { version, draft } = frame as { version?: unknown; draft?: unknown };
  if (typeof version !== 'string' || !/^\d+\.\d+\.\d+$/.test(version))
    return `the handshake's version ${JSON.stringify(version)} is not a protocol version (protocol/handshake-version-claim judges that)`;
  const known = ctx.target.releases ?? KNOWN_RELEASES;
  const { newestReleased, newestKnown } = known;
  const status = releaseStatus(version, known);
  if (status === 'unknown')
    return `whether ${version} is released this runner cannot tell (it knows the versions up to ${newestKnown}, the newest released being ${newestReleased}): update idea-conformance`;
  const said = draft === undefined ? 'has no draft' : `says draft: ${JSON.stringify(draft)}`;
  const ok = status === 'draft' ? draft === true : draft === undefined || draft === false;
  ctx.checks.push({
    name: 'draft claim',
    ok,
    detail: ok
      ? undefined
      : status === 'draft'
        ? `the handshake announces ${version}, which is not released (the newest released version is ${newestReleased}), so it must say draft: true; it ${said}`
        : `the handshake announces ${version}, which is released (the newest released version is ${newestReleased}), so it must have no draft or draft: false; it ${said}`,
  });
  return undefined;
}
