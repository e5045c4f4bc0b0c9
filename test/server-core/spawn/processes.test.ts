import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  configureSpawner,
  disposeSpawner,
  execProcess,
  MaxBufferError,
  type ProcessRequest,
  resetSpawnerForTests,
  spawnerState,
  startProcess,
} from '../../../server-core/spawn/processes';
import { sleep, until } from '../../support/wait';
import { expectThroughSpawner, testSpawnerScript, useTestSpawner } from './spawner-build';

const tmp = mkdtempSync(join(tmpdir(), 'idea-processes-'));
const logs: string[] = [];
const sh = (script: string): ProcessRequest => ({ file: 'sh', args: ['-c', script], cwd: tmp });
const node = (code: string): ProcessRequest => ({ file: process.execPath, args: ['-e', code], cwd: tmp });

/** Whether a process with this pid still exists (a zombie not reaped yet counts as gone). */
function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The spawner's own process, started for a run if need be. */
async function spawnerPid(): Promise<number> {
  await execProcess(sh('true'), { maxBuffer: 1024 });
  expectThroughSpawner();
  return spawnerState().pid!;
}

beforeEach(() => {
  resetSpawnerForTests();
  delete process.env.IDEA_SPAWN;
  logs.length = 0;
  useTestSpawner();
  configureSpawner({ log: (m) => logs.push(m) });
});
afterAll(() => disposeSpawner());

describe('processes through the spawner', () => {
  it('streams large binary output complete and in order, stdout and stderr apart', async () => {
    // Every byte value, 24 MiB on stdout; a short line on stderr.
    const res = await execProcess(
      node(
        "const b = Buffer.alloc(1 << 20); for (let i = 0; i < b.length; i++) b[i] = (i * 7) & 255; for (let i = 0; i < 24; i++) process.stdout.write(b); process.stderr.write('done\\n');",
      ),
      { maxBuffer: 64 << 20 },
    );
    expectThroughSpawner();
    const b = Buffer.alloc(1 << 20);
    for (let i = 0; i < b.length; i++) b[i] = (i * 7) & 255;
    const want = createHash('sha256');
    for (let i = 0; i < 24; i++) want.update(b);
    expect(res.stdout.length).toBe(24 << 20);
    expect(createHash('sha256').update(res.stdout).digest('hex')).toBe(want.digest('hex'));
    expect(res.stderr.toString()).toBe('done\n');
    expect(res.code).toBe(0);
  });

  it('passes the argument vector, cwd and environment exactly (no shell, nothing inherited)', async () => {
    const res = await execProcess(
      {
        file: process.execPath,
        args: [
          '-e',
          'console.log(JSON.stringify([process.argv.slice(1), process.cwd(), process.env]))',
          '$HOME',
          '; x',
        ],
        cwd: tmp,
        env: { ONLY: 'this' },
      },
      { maxBuffer: 1 << 20 },
    );
    const [argv, cwd, env] = JSON.parse(res.stdout.toString());
    expect(argv).toEqual(['$HOME', '; x']);
    expect(cwd).toBe(tmp);
    expect(env).toEqual({ ONLY: 'this' });
  });

  it('reports exit codes and signals', async () => {
    expect((await execProcess(sh('exit 7'), { maxBuffer: 1024 })).code).toBe(7);
    const killed = await execProcess(sh('kill -TERM $$'), { maxBuffer: 1024 });
    expect(killed).toMatchObject({ code: null, signal: 'SIGTERM' });
  });

  it('rejects a program that does not exist: not found in PATH, or its spawn error', async () => {
    await expect(
      execProcess({ file: 'no-such-program-idea', args: [], cwd: tmp }, { maxBuffer: 1024 }),
    ).rejects.toThrow(/no-such-program-idea was not found in PATH's absolute folders/);
    await expect(
      execProcess({ file: join(tmp, 'no-such-program-idea'), args: [], cwd: tmp }, { maxBuffer: 1024 }),
    ).rejects.toThrow(/ENOENT/);
  });

  it('an aborted signal kills the real child at once', async () => {
    const pidFile = join(tmp, 'abort.pid');
    const ac = new AbortController();
    const run = execProcess(sh(`echo $$ > ${pidFile}; exec sleep 30`), { maxBuffer: 1024, signal: ac.signal });
    await until('the child', () => {
      try {
        return readFileSync(pidFile, 'utf8').trim().length > 0;
      } catch {
        return false;
      }
    });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    const t0 = Date.now();
    ac.abort(new Error('stop now'));
    await expect(run).rejects.toThrow('stop now');
    await until('the child to be gone', () => !alive(pid), { timeoutMs: 2000 });
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('kill() ends a run that is still writing fast', async () => {
    let got = 0;
    const t0 = Date.now();
    const end = await new Promise<{ code: number | null; signal: string | null }>((resolve, reject) => {
      const p = startProcess(sh('exec cat /dev/zero'), {
        stdout: (c) => {
          got += c.length;
          if (got > 4 << 20) p.kill();
        },
        stderr: () => undefined,
        exit: (code, signal) => resolve({ code, signal }),
        error: reject,
      });
    });
    expect(end.signal).toBe('SIGTERM');
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('stops at maxBuffer and kills the child', async () => {
    await expect(execProcess(sh('exec cat /dev/zero'), { maxBuffer: 100_000 })).rejects.toBeInstanceOf(MaxBufferError);
  });

  it('bounds what is buffered while the caller is paused (the child waits instead)', async () => {
    const total = 200 << 20;
    const before = process.memoryUsage().arrayBuffers;
    let got = 0;
    let ended = false;
    let resume = () => {};
    const done = new Promise<void>((resolve, reject) => {
      const p = startProcess(sh(`head -c ${total} /dev/zero`), {
        stdout: (c) => {
          got += c.length;
        },
        stderr: () => undefined,
        exit: () => {
          ended = true;
          resolve();
        },
        error: reject,
      });
      p.pause();
      resume = () => p.resume();
    });
    // Time itself: a child nothing held back would have written far more than the bound by then.
    await sleep(1500);
    const spawnerRss =
      Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${spawnerState().pid}/status`, 'utf8'))![1]) * 1024;
    const held = process.memoryUsage().arrayBuffers - before;
    expect(got).toBe(0);
    expect(ended).toBe(false);
    // The window is 1 MiB: far below the 200 MiB the child would have written by now.
    expect(held).toBeLessThan(16 << 20);
    expect(spawnerRss).toBeLessThan(120 << 20);
    resume();
    await done;
    expect(got).toBe(total);
  });
});

describe('when the spawner dies', () => {
  it('fails the runs in flight with a clear error, and the next run starts a new spawner', async () => {
    const first = await spawnerPid();
    const pidFile = join(tmp, 'crash.pid');
    const run = execProcess(sh(`echo $$ > ${pidFile}; exec sleep 30`), { maxBuffer: 1024 });
    await until('the child', () => /\d+\n/.test(readIfThere(pidFile)));
    // Its pid reached this side too: the spawner sends "started" as it spawns, before it reads the next
    // order, and the channel keeps the order, so a second run's end comes after it.
    await execProcess(sh('true'), { maxBuffer: 1024 });
    process.kill(first, 'SIGKILL');
    await expect(run).rejects.toThrow(/process spawner \(pid \d+\) was killed by SIGKILL while \/\S*\/sh ran/);
    // The spawner could not kill it: this side did, by the pid the spawner reported.
    await until('the orphan to be killed', () => !alive(Number(readIfThere(pidFile))), { timeoutMs: 2000 });
    const res = await execProcess(sh('echo again'), { maxBuffer: 1024 });
    expect(res.stdout.toString()).toBe('again\n');
    expectThroughSpawner();
    expect(spawnerState().pid).not.toBe(first);
    expect(logs.join('\n')).toMatch(/killed by SIGKILL; the next process starts a new one/);
  });

  it('after three deaths within a minute, starts processes directly and says so once', async () => {
    for (let i = 0; i < 3; i++) {
      const pid = await spawnerPid();
      process.kill(pid, 'SIGKILL');
      await until('the death to be noticed', () => spawnerState().pid !== pid);
    }
    expect(spawnerState()).toMatchObject({ mode: 'direct', reason: expect.stringMatching(/died 3 times within 60 s/) });
    const res = await execProcess(sh('echo direct'), { maxBuffer: 1024 });
    expect(res.stdout.toString()).toBe('direct\n');
    expect(logs.filter((l) => /started directly from now on/.test(l))).toHaveLength(1);
  });

  it('a spawner that cannot start hands the runs held for it to direct spawning', async () => {
    const broken = join(tmp, 'broken-spawner.cjs');
    writeFileSync(broken, 'process.exit(3);\n');
    configureSpawner({ script: broken });
    const res = await execProcess(sh('echo held'), { maxBuffer: 1024 });
    expect(res.stdout.toString()).toBe('held\n');
    expect(spawnerState()).toMatchObject({ mode: 'direct', reason: expect.stringMatching(/did not start.*code 3/) });
  });

  it('no bundle: direct, logged', async () => {
    configureSpawner({ script: join(tmp, 'missing.cjs') });
    expect((await execProcess(sh('echo ok'), { maxBuffer: 1024 })).stdout.toString()).toBe('ok\n');
    expect(spawnerState().mode).toBe('direct');
    expect(logs).toEqual([expect.stringMatching(/no process spawner bundle at .*missing\.cjs/)]);
  });

  it('IDEA_SPAWN=direct turns it off', async () => {
    process.env.IDEA_SPAWN = 'direct';
    const { forks } = spawnerState();
    try {
      expect((await execProcess(sh('echo ok'), { maxBuffer: 1024 })).stdout.toString()).toBe('ok\n');
      expect(spawnerState()).toMatchObject({ mode: 'direct', reason: 'IDEA_SPAWN=direct', forks });
    } finally {
      delete process.env.IDEA_SPAWN;
    }
  });
});

it('the test build exists', () => expect(testSpawnerScript()).toMatch(/spawner\.cjs$/));
