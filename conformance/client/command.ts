// Runs the client command for one scenario, as the contract says (contract.ts): through the shell, the
// server's url appended as its last argument, the scenario's variables in its environment. Bounded:
// a command still running after `timeoutMs` is killed with everything it started (its process group),
// and what it printed is kept within bounds (stdout whole up to 64 MiB, the last 16 KiB of stderr).
import { spawn } from 'node:child_process';
import { CONTRACT_ENV, type RequestEntry } from './contract';

export interface CommandRun {
  /** Exit code, or null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Killed after the time bound. */
  timedOut: boolean;
  stdout: string;
  /** Its tail (the end of a crash says the most). */
  stderr: string;
  /** stdout went past its bound (and was cut there). */
  stdoutCut: boolean;
  /** The command could not be started at all. */
  spawnError?: string;
  durationMs: number;
}

export interface CommandInput {
  command: string;
  url: string;
  token: string;
  scenario: string;
  requests: readonly RequestEntry[];
  timeoutMs: number;
  /** The environment the command inherits (default process.env); IDEA_URL is always left out. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export const STDOUT_BOUND = 64 * 1024 * 1024;
export const STDERR_KEPT = 16 * 1024;
/** After the command exits, how long its output streams may take to close (a child it left holding them). */
const DRAIN_MS = 1000;

/** The contract's environment: the inherited one without IDEA_URL (the url is the last argument). */
export function commandEnv(i: Pick<CommandInput, 'env' | 'token' | 'scenario' | 'requests'>): NodeJS.ProcessEnv {
  const { IDEA_URL: _url, ...inherited } = i.env ?? process.env;
  return {
    ...inherited,
    [CONTRACT_ENV.token]: i.token,
    [CONTRACT_ENV.scenario]: i.scenario,
    [CONTRACT_ENV.requests]: JSON.stringify(i.requests),
  };
}

export function runCommand(i: CommandInput): Promise<CommandRun> {
  const started = performance.now();
  const windows = process.platform === 'win32';
  // POSIX: sh -c '<command> "$@"' with the url as $1, so any shell syntax in the command stays its own and
  // the url is exactly one last argument. Windows has no sh: the url (ours, no metacharacters) is appended.
  const child = windows
    ? spawn(`${i.command} ${i.url}`, { shell: true, env: commandEnv(i), cwd: i.cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn('/bin/sh', ['-c', `${i.command} "$@"`, 'idea-conformance-client', i.url], {
        env: commandEnv(i),
        cwd: i.cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
  const out: Buffer[] = [];
  let outBytes = 0;
  let stdoutCut = false;
  let err = '';
  child.stdout!.on('data', (d: Buffer) => {
    if (outBytes + d.length > STDOUT_BOUND) {
      stdoutCut = true;
      d = d.subarray(0, Math.max(0, STDOUT_BOUND - outBytes));
    }
    outBytes += d.length;
    if (d.length) out.push(d);
  });
  child.stderr!.on('data', (d: Buffer) => {
    err = (err + d.toString()).slice(-STDERR_KEPT);
  });
  const killGroup = () => {
    try {
      if (!windows && child.pid) process.kill(-child.pid, 'SIGKILL');
      else child.kill('SIGKILL');
    } catch {
      // already gone
    }
  };
  return new Promise((resolve) => {
    let timedOut = false;
    let settled = false;
    let spawnError: string | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, i.timeoutMs);
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Whatever the command left running (an adapter's server, a stuck child) goes with it.
      killGroup();
      resolve({
        code,
        signal,
        timedOut,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: err,
        stdoutCut,
        ...(spawnError ? { spawnError } : {}),
        durationMs: Math.round(performance.now() - started),
      });
    };
    child.once('error', (e) => {
      spawnError = e.message;
      finish(null, null);
    });
    child.once('exit', (code, signal) => {
      // Let the pipes deliver what is left, within a bound: a grandchild may keep them open.
      const drain = setTimeout(() => finish(code, signal), DRAIN_MS);
      child.once('close', () => {
        clearTimeout(drain);
        finish(code, signal);
      });
    });
  });
}
