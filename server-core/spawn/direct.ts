// Starting a process on this thread (child_process.spawn): what the spawner does, here, for when it is
// turned off (IDEA_SPAWN=direct), cannot be forked or keeps dying. Same contract as spawner-client.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { childEnv, type ProcessRequest, type ProcessSink, type RunningProcess } from './process-types';

export function startDirect(req: ProcessRequest, sink: ProcessSink): RunningProcess {
  let child: ChildProcess;
  try {
    child = spawn(req.file, [...req.args], {
      cwd: req.cwd,
      env: childEnv(req.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
  } catch (e) {
    queueMicrotask(() => sink.error(e as Error));
    return { pause() {}, resume() {}, kill() {} };
  }
  let done = false;
  let killed = false;
  child.stdout!.on('data', (c: Buffer) => {
    if (!done && !killed) sink.stdout(c);
  });
  child.stderr!.on('data', (c: Buffer) => {
    if (!done && !killed) sink.stderr(c);
  });
  child.on('error', (e) => {
    if (done || child.pid !== undefined) return;
    done = true;
    sink.error(e);
  });
  child.on('close', (code, signal) => {
    if (done) return;
    done = true;
    sink.exit(code, signal);
  });
  return {
    pause: () => {
      child.stdout!.pause();
      child.stderr!.pause();
    },
    resume: () => {
      child.stdout!.resume();
      child.stderr!.resume();
    },
    // Output after a kill is dropped; Node flushes paused pipes at the child's exit, so the end comes.
    kill: (signal = 'SIGTERM') => {
      killed = true;
      child.kill(signal);
    },
  };
}
