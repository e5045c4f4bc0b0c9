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
  child.stdout!.on('data', (c: Buffer) => {
    if (!done) sink.stdout(c);
  });
  child.stderr!.on('data', (c: Buffer) => {
    if (!done) sink.stderr(c);
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
    kill: (signal = 'SIGTERM') => {
      child.kill(signal);
    },
  };
}
