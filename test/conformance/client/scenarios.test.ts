// The client scenarios (conformance/client/scenarios.ts) against a small correct client and against the
// deliberately broken ones (clients/node-client.mjs --bug …): the correct one passes every scenario, each
// broken one fails the scenario meant for it, on the check that names its bug. And the scripted servers
// themselves speak the spec: every frame they send is valid for the version they announce.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../../conformance/client/command';
import { runClientSuite, runScenario } from '../../../conformance/client/run';
import type { ClientScenario } from '../../../conformance/client/scenario';
import { SCENARIOS } from '../../../conformance/client/scenarios';
import { CLIENT_CLAUSES } from '../../../conformance/lib/clauses';
import type { CaseResult } from '../../../conformance/lib/types';
import { loadFrameValidators, NEWEST_VERSION } from '../../../generated/versions';
import { serverFrameProblem } from '../../../runtime/frames';
import { poll } from '../../../runtime/poll';

const CLIENT = `"${process.execPath}" "${join(import.meta.dirname, 'clients', 'node-client.mjs')}"`;
const scenario = (id: string): ClientScenario => SCENARIOS.find((s) => s.id === id)!;
/**
 * Bounds a broken client that waits forever (three of them do, on purpose): above a correct one's slowest
 * scenario (its handshake waits 2 s) with room for a loaded machine.
 */
const TIMEOUT_MS = 6000;

/** Each deliberately broken client, the scenario it must fail and the check that says why. */
const BUGS: readonly [bug: string, scenario: string, check: string][] = [
  ['by-order', 'answers/out-of-order', 'answers'], // pairs answers with requests by arrival order
  ['error-closes', 'answers/error-then-result', 'the connection stays usable'], // gives up at the first error
  ['eager', 'handshake/slow', 'frames'], // sends its requests before the handshake is answered
  ['no-token', 'handshake/slow', 'frames'], // leaves the token out of the handshake
  ['refusal-as-closed', 'handshake/wrong-token', 'answers'], // reports a refusal as no answer, not by its code
  ['stringly', 'requests/valid-frames', 'frames'], // sends every params value as a string
  ['one-id', 'requests/valid-frames', 'frames'], // one requestId for every request in flight
  ['strict-fields', 'fields/unknown-in-results', 'answers'], // a result with a field it does not know is an error
  ['strict-handshake', 'fields/unknown-in-handshake', 'requests'], // refuses a handshake with unknown fields
  ['event-as-answer', 'events/between-answers', 'answers'], // takes an event frame for an answer
  ['code-lost', 'errors/every-code', 'answers'], // reports every error answer as HANDLER_ERROR
  ['cancelled-waits', 'errors/cancelled', 'exit'], // waits on after CANCELLED
  ['hangs-on-close', 'transport/close-mid-request', 'exit'], // waits forever once the server closes
  ['small-frames', 'transport/frame-under-bound', 'answers'], // takes frames up to 1 MiB only
  ['requires-auth', 'versions/older-server', 'requests'], // refuses a handshake without authRequired (0.1.2)
  ['cancels-anyway', 'versions/older-server', 'frames'], // sends a cancel frame to a server that has none
  ['version-pinned', 'versions/newer-server', 'requests'], // refuses any version but its own
  ['any-host', 'security/loopback-only', 'no connection to a url that is not loopback'], // connects anywhere
];

const failedChecks = (r: CaseResult) => r.checks.filter((k) => !k.ok).map((k) => k.name);

describe('the client scenarios', () => {
  it('are at least 12, with unique ids, each citing a clause that binds clients; every such clause has one', () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(12);
    expect(new Set(SCENARIOS.map((s) => s.id)).size).toBe(SCENARIOS.length);
    for (const s of SCENARIOS) expect(CLIENT_CLAUSES.has(s.clause), `${s.id} cites ${s.clause}`).toBe(true);
    expect([...CLIENT_CLAUSES.keys()].filter((id) => !SCENARIOS.some((s) => s.clause === id))).toEqual([]);
    // Requests of one scenario never contain one another: a frame pairs with one entry only.
    for (const s of SCENARIOS)
      for (const [i, a] of s.requests.entries())
        for (const [j, b] of s.requests.entries())
          if (i !== j && a.topic === b.topic)
            expect(
              Object.entries(a.params).every(([k, v]) => JSON.stringify(b.params[k]) === JSON.stringify(v)),
              `${s.id}: request ${i + 1} is contained in request ${j + 1}`,
            ).toBe(false);
  });

  it('a correct client passes every one, and the scripted servers send only frames valid for their version', async () => {
    const sent: { id: string; version: string; texts: string[] }[] = [];
    const results = await Promise.all(
      SCENARIOS.map((sc) =>
        runScenario(sc, {
          command: CLIENT,
          onRecording: (rec, version) =>
            sent.push({
              id: sc.id,
              version,
              texts: rec.connections.flatMap((c) => c.traffic.filter((t) => t.direction === 'sent').map((t) => t.text)),
            }),
        }),
      ),
    );
    for (const r of results) expect(failedChecks(r), r.id).toEqual([]);
    const problems: string[] = [];
    for (const s of sent) {
      const frames = (await (loadFrameValidators(s.version) ?? loadFrameValidators(NEWEST_VERSION)))!;
      for (const t of s.texts) {
        const p = serverFrameProblem(frames, t);
        if (p) problems.push(`${s.id}: ${p}: ${t.slice(0, 200)}`);
      }
    }
    expect(problems).toEqual([]);
    // The frame near the bound is as near as it says: 4 MiB less 64 bytes.
    const big = sent.find((s) => s.id === 'transport/frame-under-bound')!.texts.find((t) => t.includes('"matches"'))!;
    expect(Buffer.byteLength(big)).toBe(4 * 1024 * 1024 - 64);
  }, 60_000);

  // Concurrently: three of them wait out the bound, on purpose.
  it.concurrent.each(BUGS)(
    'a client with the bug %s fails %s on its %s check',
    async (bug, id, check) => {
      const r = await runScenario(scenario(id), { command: `${CLIENT} --bug ${bug}`, timeoutMs: TIMEOUT_MS });
      expect(r.verdict).toBe('fail');
      expect(
        failedChecks(r).some((n) => n.startsWith(check)),
        failedChecks(r).join('\n'),
      ).toBe(true);
    },
    30_000,
  );

  it('a cancel frame naming a request in flight is valid from 0.1.7 on', async () => {
    const r = await runScenario(scenario('answers/out-of-order'), { command: `${CLIENT} --bug cancels-anyway` });
    expect(failedChecks(r)).toEqual([]);
    expect(r.transcript!.some((t) => t.text.startsWith('{"type":"cancel"'))).toBe(true);
  }, 30_000);

  it('a client that crashes fails with its stderr; one that prints garbage fails its output', async () => {
    const crash = await runScenario(scenario('answers/out-of-order'), { command: `${CLIENT} --bug crash` });
    const exit = crash.checks.find((k) => k.name.startsWith('exit'))!;
    expect(exit.ok).toBe(false);
    expect(exit.detail).toMatch(/^exited 1\nstderr \(its end\):\n[\s\S]*this client crashes on start/);
    const garbage = await runScenario(scenario('answers/out-of-order'), { command: `${CLIENT} --bug garbage` });
    expect(garbage.checks.find((k) => k.name.startsWith('output'))).toMatchObject({
      ok: false,
      detail: expect.stringContaining('1 lines printed for 3 requests\nline 1: not JSON: "all good"'),
    });
  }, 30_000);

  it('selects by profile, and a failing scenario fails the run while the others still pass', async () => {
    const s = await runClientSuite({
      command: `${CLIENT} --bug any-host`,
      scenarios: SCENARIOS.filter((sc) => sc.id.startsWith('security/') || sc.id === 'answers/out-of-order'),
      profiles: ['security'],
      timeoutMs: TIMEOUT_MS,
    });
    expect(s.results.map((r) => [r.id, r.verdict])).toEqual([['security/loopback-only', 'fail']]);
    expect([s.ok, s.byProfile.security?.fail, s.client?.command]).toEqual([false, 1, `${CLIENT} --bug any-host`]);
  }, 30_000);
});

/** Whether `pid` runs (a zombie does not: Linux's /proc says Z; elsewhere a signal 0 is the test). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' && existsSync('/proc/self')) return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('running the command', () => {
  it('appends the url as its last argument and sets the three variables, without IDEA_URL', async () => {
    const script =
      'console.log(JSON.stringify([process.argv.slice(1), process.env.IDEA_TOKEN, process.env.IDEA_CONFORMANCE_SCENARIO, process.env.IDEA_CONFORMANCE_REQUESTS, process.env.IDEA_URL]))';
    const r = await runCommand({
      command: `"${process.execPath}" -e '${script}' -- first`,
      url: 'ws://127.0.0.1:9',
      token: 't0k',
      scenario: 'answers/x',
      requests: [{ topic: '/app/vscode/edit/find', params: { pattern: 'a' } }],
      timeoutMs: 10_000,
      env: { ...process.env, IDEA_URL: 'ws://127.0.0.1:7200' },
    });
    expect([r.code, JSON.parse(r.stdout)]).toEqual([
      0,
      [
        ['first', 'ws://127.0.0.1:9'],
        't0k',
        'answers/x',
        '[{"topic":"/app/vscode/edit/find","params":{"pattern":"a"}}]',
        null,
      ],
    ]);
  });

  it('kills a command still running after the bound, with whatever it started', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'client-command-'));
    try {
      const pidFile = join(dir, 'pid');
      const r = await runCommand({
        command: `sh -c 'sleep 30 & echo $! > "${pidFile}"; echo started >&2; wait' --`,
        url: 'ws://127.0.0.1:9',
        token: 't',
        scenario: 's',
        requests: [],
        timeoutMs: 1000,
      });
      expect([r.timedOut, r.signal, r.stderr]).toEqual([true, 'SIGKILL', 'started\n']);
      const pid = Number(readFileSync(pidFile, 'utf8'));
      // The grandchild went with the group: gone, or a zombie waiting to be reaped by whoever adopted it.
      const gone = await poll(() => (running(pid) ? undefined : true), { timeoutMs: 5000, intervalMs: 50 });
      expect(gone, `the grandchild ${pid} still runs`).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
