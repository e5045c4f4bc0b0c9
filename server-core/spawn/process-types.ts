// What a caller of server-core/spawn sees of one child process, the same whether it was started by the
// spawner process or directly (spawner-client.ts, direct.ts).

export interface ProcessRequest {
  /** The program, run without a shell. */
  file: string;
  args: readonly string[];
  cwd: string;
  /** The child's whole environment; default: this process's environment at the call. */
  env?: NodeJS.ProcessEnv;
}

/** Receives one process's output in order, then exactly one of exit or error. */
export interface ProcessSink {
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
  exit(code: number | null, signal: NodeJS.Signals | null): void;
  /** It could not be started, or the spawner died while it ran. */
  error(e: Error): void;
}

export interface RunningProcess {
  /** Holds back output (and the end) until resume(); the child's pipes fill and it waits. */
  pause(): void;
  resume(): void;
  /** Signals the child (default SIGTERM); output not yet delivered may be dropped, the end still comes. */
  kill(signal?: NodeJS.Signals): void;
}

/** The environment a child gets: the caller's, as plain strings (undefined entries dropped). */
export function childEnv(env: NodeJS.ProcessEnv | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env ?? process.env)) if (typeof v === 'string') out[k] = v;
  return out;
}
