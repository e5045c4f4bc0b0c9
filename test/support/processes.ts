// Bounded waits on child processes for the test harnesses. A wait that can hang costs a whole CI run and
// hides its cause, so every wait here has a bound and its failure says what it was waiting for.
//
// Why not `child.once('exit')` alone: a child that is already gone never emits 'exit' again, and a child
// killed by a signal has `exitCode === null` (its `signalCode` is set instead). Checking only
// `exitCode` before listening therefore hangs whenever the exit was reaped before the wait began —
// which, for a SIGKILLed child, depends on how busy the machine is (issue 30's hung SIGKILL test).
import type { ChildProcess } from 'node:child_process';

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Default bound for a process to exit once asked (SIGTERM, SIGKILL, a closed stdin). */
export const EXIT_TIMEOUT_MS = 30_000;

/** The child's exit status if it has exited already (by a code or a signal), else undefined. */
export function exitStatus(child: ChildProcess): ExitStatus | undefined {
  return child.exitCode !== null || child.signalCode !== null
    ? { code: child.exitCode, signal: child.signalCode }
    : undefined;
}

/**
 * Resolves when `child` has exited (at once if it already has); rejects after `timeoutMs` with an error
 * naming `what` and the pid. The timer does not keep the test process alive.
 */
export function exited(child: ChildProcess, what: string, timeoutMs = EXIT_TIMEOUT_MS): Promise<ExitStatus> {
  const now = exitStatus(child);
  if (now) return Promise.resolve(now);
  return new Promise<ExitStatus>((resolve, reject) => {
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      resolve({ code, signal });
    };
    const timer = setTimeout(() => {
      child.off('exit', onExit);
      reject(new Error(`${what}: process ${child.pid} did not exit within ${timeoutMs} ms`));
    }, timeoutMs);
    timer.unref();
    child.once('exit', onExit);
  });
}

/** `promise`, or a rejection naming `what` after `timeoutMs`. */
export function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
  });
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}
