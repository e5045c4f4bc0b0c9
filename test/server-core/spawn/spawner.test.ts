import { type ChildProcess, fork, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import type { FromSpawner, ToSpawner } from '../../../server-core/spawn/messages';
import { exited } from '../../support/processes';
import { silence, timed, until } from '../../support/wait';
import { testSpawnerScript } from './spawner-build';

function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

const started: ChildProcess[] = [];
afterEach(() => {
  for (const c of started.splice(0)) c.kill('SIGKILL');
});

function startSpawner(): { child: ChildProcess; messages: FromSpawner[] } {
  const child = fork(testSpawnerScript(), [], { execArgv: [], serialization: 'advanced', stdio: 'ignore' as never });
  started.push(child);
  const messages: FromSpawner[] = [];
  child.on('message', (m: FromSpawner) => messages.push(m));
  return { child, messages };
}

describe('the spawner process', () => {
  it('acts only on well-formed orders from its channel', async () => {
    const { child, messages } = startSpawner();
    await until('ready', () => messages.some((m) => m.t === 'ready'), { timeoutMs: 5000 });
    const hostile: unknown[] = [
      'run sh -c id',
      null,
      [1, 2],
      { t: 'run', id: -1, file: 'sh', args: ['-c', 'echo bad'], cwd: '/', env: {} },
      { t: 'run', id: 1.5, file: 'sh', args: ['-c', 'echo bad'], cwd: '/', env: {} },
      { t: 'run', id: 2, file: 'sh', args: '-c echo bad', cwd: '/', env: {} },
      { t: 'run', id: 3, file: 'sh', args: ['-c', 'echo bad'], cwd: '/', env: { A: 1 } },
      { t: 'run', id: 4, file: ['sh'], args: ['-c', 'echo bad'], cwd: '/', env: {} },
      { t: 'shell', id: 5, command: 'echo bad' },
      { t: 'kill', id: 6, signal: '; rm -rf /' },
      { t: 'ack', id: 7, bytes: -5 },
    ];
    for (const m of hostile) child.send(m as never);
    const good: ToSpawner = { t: 'run', id: 9, file: 'sh', args: ['-c', 'echo good'], cwd: '/', env: {} };
    const { ms } = await timed(async () => {
      child.send(good);
      await until('the good run', () => messages.some((m) => m.t === 'exit'), { timeoutMs: 5000 });
    });
    // A hostile order acted on would have started a run before the good one: its messages would come
    // within about the good run's own time. Nothing must, so the window is a multiple of that time.
    await silence(ms, { factor: 3, floorMs: 50 });
    const rest = messages.filter((m) => m.t !== 'ready');
    expect(rest.map((m) => ('id' in m ? m.id : 0))).toEqual(rest.map(() => 9));
    const out = rest.flatMap((m) => (m.t === 'data' ? [m.chunk] : []));
    expect(Buffer.concat(out).toString()).toBe('good\n');
  });

  it('kills what it started and exits when its parent dies (no orphans)', async () => {
    // A parent of its own (plain node) that runs `sleep` through the spawner and prints both pids.
    const parentCode = `
      const { fork } = require('node:child_process');
      const s = fork(${JSON.stringify(testSpawnerScript())}, [], { execArgv: [], serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
      s.on('message', (m) => {
        if (m.t === 'ready') s.send({ t: 'run', id: 1, file: 'sh', args: ['-c', 'echo $$; exec sleep 60'], cwd: '/', env: {} });
        if (m.t === 'data') console.log(JSON.stringify({ spawner: s.pid, sleep: Number(String(m.chunk).trim()) }));
      });`;
    const parent = spawn(process.execPath, ['-e', parentCode], { stdio: ['ignore', 'pipe', 'inherit'] });
    started.push(parent);
    const line = await new Promise<string>((resolve) =>
      createInterface({ input: parent.stdout! }).once('line', resolve),
    );
    const pids = JSON.parse(line) as { spawner: number; sleep: number };
    expect(alive(pids.sleep)).toBe(true);
    parent.kill('SIGKILL');
    await until('sleep to be killed', () => !alive(pids.sleep), { timeoutMs: 2000 });
    await until('the spawner to exit', () => !alive(pids.spawner), { timeoutMs: 2000 });
  });

  it('exits at once when forked without a channel', async () => {
    const c = spawn(process.execPath, [testSpawnerScript()], { stdio: 'ignore' });
    started.push(c);
    const { code } = await exited(c, 'the spawner forked without a channel', 10_000);
    expect(code).toBe(2);
  });
});
