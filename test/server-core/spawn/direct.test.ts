import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { startDirect } from '../../../server-core/spawn/direct';
import type { ProcessRequest, RunningProcess } from '../../../server-core/spawn/process-types';

interface Outcome {
  out: string;
  err: string;
  code?: number | null;
  signal?: string | null;
  error?: Error;
}

function run(req: ProcessRequest, onStart?: (p: RunningProcess) => void): Promise<Outcome> {
  return new Promise((resolve) => {
    const o: Outcome = { out: '', err: '' };
    const p = startDirect(req, {
      stdout: (c) => {
        o.out += c.toString();
      },
      stderr: (c) => {
        o.err += c.toString();
      },
      exit: (code, signal) => resolve({ ...o, code, signal }),
      error: (error) => resolve({ ...o, error }),
    });
    onStart?.(p);
  });
}

const sh = (script: string): ProcessRequest => ({ file: 'sh', args: ['-c', script], cwd: tmpdir() });

describe('startDirect (the fallback)', () => {
  it('streams both outputs, then the exit code', async () => {
    expect(await run(sh('echo out; echo err >&2; exit 3'))).toMatchObject({ out: 'out\n', err: 'err\n', code: 3 });
  });

  it('gives the environment it is told, no other', async () => {
    const o = await run({ file: 'sh', args: ['-c', 'echo "[$X][$HOME]"'], cwd: tmpdir(), env: { X: 'y' } });
    expect(o.out).toBe('[y][]\n');
  });

  it('a program that does not exist is an error, once', async () => {
    const o = await run({ file: 'no-such-program-idea', args: [], cwd: tmpdir() });
    expect((o.error as NodeJS.ErrnoException).code).toBe('ENOENT');
    expect(o.code).toBeUndefined();
  });

  it('an argument spawn() refuses is an error too, not a throw', async () => {
    const o = await run({ file: 'sh', args: ['-c', 'echo\0x'], cwd: tmpdir() });
    expect(o.error).toBeInstanceOf(Error);
  });

  it('a paused run that is killed still ends, its output dropped', async () => {
    const o = await run(sh('head -c 1000000 /dev/zero; exec sleep 30'), (p) => {
      p.pause();
      setTimeout(() => p.kill(), 300);
    });
    expect(o).toMatchObject({ out: '', signal: 'SIGTERM' });
  });

  it('kill() signals the child', async () => {
    const o = await run(sh('exec sleep 30'), (p) => setTimeout(() => p.kill('SIGKILL'), 50));
    expect(o.signal).toBe('SIGKILL');
  });
});
