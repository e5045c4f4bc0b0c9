import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { ProcessRequest, ProcessSink, RunningProcess } from '../../../server-core/spawn/process-types';
import { SpawnerClient, type SpawnerDeath } from '../../../server-core/spawn/spawner-client';
import { silence, timed, until } from '../../support/wait';
import { testSpawnerScript } from './spawner-build';

function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

const sh = (script: string): ProcessRequest => ({ file: 'sh', args: ['-c', script], cwd: tmpdir() });

function collect(): {
  sink: ProcessSink;
  done: Promise<{ out: string; code?: number | null; signal?: string | null; error?: Error }>;
} {
  let out = '';
  let resolve!: (v: { out: string; code?: number | null; signal?: string | null; error?: Error }) => void;
  const done = new Promise<{ out: string; code?: number | null; signal?: string | null; error?: Error }>((r) => {
    resolve = r;
  });
  return {
    sink: {
      stdout: (c) => {
        out += c.toString();
      },
      stderr: () => undefined,
      exit: (code, signal) => resolve({ out, code, signal }),
      error: (error) => resolve({ out, error }),
    },
    done,
  };
}

/**
 * How long a run of `script` takes from start to end here, unpaused, once the spawner is up (a run
 * before it is ready also waits for its start): what the run's messages need to arrive.
 */
async function runTime(c: SpawnerClient, script: string): Promise<number> {
  const warm = collect();
  c.start(sh('true'), warm.sink);
  await warm.done;
  const r = collect();
  const { ms } = await timed(async () => {
    c.start(sh(script), r.sink);
    await r.done;
  });
  return ms;
}

function client(): { c: SpawnerClient; deaths: SpawnerDeath[]; fellBack: ProcessRequest[] } {
  const deaths: SpawnerDeath[] = [];
  const fellBack: ProcessRequest[] = [];
  const fallback = (req: ProcessRequest, sink: ProcessSink): RunningProcess => {
    fellBack.push(req);
    queueMicrotask(() => sink.exit(0, null));
    return { pause() {}, resume() {}, kill() {} };
  };
  return { c: new SpawnerClient(testSpawnerScript(), fallback, (d) => deaths.push(d)), deaths, fellBack };
}

describe('SpawnerClient', () => {
  it('holds runs until the spawner is ready, then runs them there', async () => {
    const { c, fellBack } = client();
    const a = collect();
    const b = collect();
    c.start(sh('echo a'), a.sink);
    c.start(sh('echo b'), b.sink);
    expect(await a.done).toMatchObject({ out: 'a\n', code: 0 });
    expect(await b.done).toMatchObject({ out: 'b\n', code: 0 });
    expect(fellBack).toEqual([]);
    c.dispose();
  });

  it('delivers nothing while paused and everything, in order, after resume', async () => {
    const { c } = client();
    const script = 'for i in 1 2 3; do echo $i; done';
    const took = await runTime(c, script);
    const r = collect();
    const p = c.start(sh(script), r.sink);
    p.pause();
    let ended = false;
    void r.done.then(() => {
      ended = true;
    });
    // Unpaused, the same run's output and end would have come within `took`; paused, nothing must.
    await silence(took, { factor: 3, floorMs: 50 });
    expect(ended).toBe(false);
    p.resume();
    expect(await r.done).toMatchObject({ out: '1\n2\n3\n', code: 0 });
    c.dispose();
  });

  it('a paused run that is killed still ends, its output dropped', async () => {
    const { c } = client();
    const took = await runTime(c, 'echo early');
    const r = collect();
    const p = c.start(sh('echo early; exec sleep 30'), r.sink);
    p.pause();
    // "early" reaches this side within about the time a whole `echo early` takes: held by the pause.
    await silence(took, { factor: 3, floorMs: 50 });
    p.kill();
    expect(await r.done).toEqual({ out: '', code: null, signal: 'SIGTERM' });
    c.dispose();
  });

  it('a run killed before the spawner took it ends without starting', async () => {
    const { c } = client();
    const r = collect();
    c.start(sh('echo never'), r.sink).kill();
    expect(await r.done).toEqual({ out: '', code: null, signal: 'SIGTERM' });
    c.dispose();
  });

  it('dispose() fails runs in flight, and the spawner kills their processes', async () => {
    const { c, deaths } = client();
    let out = '';
    const failed = new Promise<Error>((resolve) =>
      c.start(sh('echo $$; exec sleep 30'), {
        stdout: (chunk) => {
          out += chunk.toString();
        },
        stderr: () => undefined,
        exit: () => resolve(new Error('exited')),
        error: resolve,
      }),
    );
    await until('the pid', () => out.endsWith('\n'));
    const pid = Number(out);
    expect(alive(pid)).toBe(true);
    c.dispose();
    expect((await failed).message).toMatch(/was shut down while sh ran/);
    await until('the process to be killed', () => !alive(pid));
    expect(deaths).toEqual([]);
    expect(c.alive).toBe(false);
  });
});
