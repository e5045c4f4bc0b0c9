// SIGKILL of the real extension host in the middle of an edit/replace of a large file (issue 9): after
// every kill each file holds its old bytes or its new bytes, never a truncation; once VS Code has
// started a new extension host, our extension's start-up recovery makes the write all or nothing, and
// a replace that was answered is never undone. Repeated at spread-out moments of the write.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect, type IdeaClient } from '../../generated/v0.1.6/client';
import { soak } from '../support/soak';
import { type LiveFixture, startLiveFixture } from './helpers';
import { extensionHostPid, reconnect } from './support/extension-host';

// Kills spread over the write's timeline: 5 reach its start, middle and end; the soak takes 20.
const KILLS = soak(5, 20);
let fx: LiveFixture;
const OLD_BIG = Buffer.from('old line of a large file, to be replaced\n'.repeat(450_000)); // ~18 MB
const NEW_BIG = Buffer.from('NEW line of a large file, to be replaced\n'.repeat(450_000));
const OLD_SMALL = Buffer.from('a small old line of a large file, to be replaced\n');
const NEW_SMALL = Buffer.from('a small NEW line of a large file, to be replaced\n');

beforeAll(async () => {
  fx = await startLiveFixture({ prepare: (dir) => mkdirSync(join(dir, 'crash')) });
});
afterAll(async () => {
  await fx?.close();
});

const big = () => join(fx.ws.dir, 'crash', 'big.txt');
const small = () => join(fx.ws.dir, 'crash', 'a-small.txt');

/** A client on the server of the current extension host (its port and token are new after a restart). */
const client = (notPid?: number): Promise<IdeaClient> =>
  reconnect(fx.host, (url, token) => connect({ url, token, timeoutMs: 2000 }), notPid);

function state(path: string, oldBytes: Buffer, newBytes: Buffer): 'old' | 'new' | string {
  const b = readFileSync(path);
  return b.equals(oldBytes) ? 'old' : b.equals(newBytes) ? 'new' : `neither (${b.length} bytes)`;
}

// clause H12: a write interrupted by a crash is undone at the next start, in the real extension host.
it(`SIGKILL of the extension host during a replace never truncates, and recovery makes it all or nothing (${KILLS} kills)`, async () => {
  const reset = () => {
    writeFileSync(big(), OLD_BIG);
    writeFileSync(small(), OLD_SMALL);
  };
  const replace = (c: IdeaClient) =>
    c.editReplace(
      { pattern: 'old line of a large file', replacement: 'NEW line of a large file', include: 'crash/**' },
      { timeoutMs: 120_000 },
    );

  // Calibrate: how long one full replace takes here.
  reset();
  let c = await client();
  let t0 = Date.now();
  await replace(c);
  const full = Date.now() - t0;
  expect(state(big(), OLD_BIG, NEW_BIG)).toBe('new');

  const outcomes = { old: 0, new: 0, mixedBeforeRecovery: 0, answered: 0 };
  for (let i = 0; i < KILLS; i++) {
    reset();
    await new Promise((r) => setTimeout(r, 300)); // let the host see the reset before it plans
    const pid = extensionHostPid(fx.host)!;
    let answered = false;
    t0 = Date.now();
    const pending = replace(c).then(
      () => {
        answered = true;
      },
      () => undefined,
    );
    await new Promise((r) => setTimeout(r, Math.floor((i / KILLS) * full * 1.3)));
    process.kill(pid, 'SIGKILL');
    await pending;
    c.close();
    const before = [state(small(), OLD_SMALL, NEW_SMALL), state(big(), OLD_BIG, NEW_BIG)];
    for (const s of before) expect(s === 'old' || s === 'new', `kill ${i}: ${s}`).toBe(true);
    if (new Set(before).size > 1) outcomes.mixedBeforeRecovery++;
    c = await client(pid); // the new host has run its start-up recovery before it listens
    const after = [state(small(), OLD_SMALL, NEW_SMALL), state(big(), OLD_BIG, NEW_BIG)];
    expect(new Set(after).size, `kill ${i}: after recovery ${after}`).toBe(1);
    if (answered) {
      outcomes.answered++;
      expect(after[0], `kill ${i}: an answered replace was undone`).toBe('new');
    }
    outcomes[after[0] as 'old' | 'new']++;
    expect(readdirSync(join(fx.ws.dir, 'crash')).filter((n) => n.includes('.idea-tmp-'))).toEqual([]);
  }
  c.close();
  console.log(
    `extension host SIGKILL: ${KILLS} kills over a ${full} ms replace of ${(OLD_BIG.length / 1e6).toFixed(1)} MB: ${JSON.stringify(outcomes)}`,
  );
  expect(outcomes.old).toBeGreaterThan(0);
}, 900_000);
