// The messages between server-core's process engine (spawner-client.ts) and the spawner process
// (spawner.ts) over their IPC channel ('advanced' serialization: Buffers arrive as Buffers). The
// spawner checks every message it is sent with isToSpawner and ignores anything else.

/** Parent → spawner: start a process (argument vector, no shell), signal it, or acknowledge output. */
export type ToSpawner =
  | { t: 'run'; id: number; file: string; args: string[]; cwd: string; env: Record<string, string> }
  | { t: 'kill'; id: number; signal: NodeJS.Signals }
  | { t: 'ack'; id: number; bytes: number };

/** Spawner → parent: ready to take runs; a run's pid, output, end, or why it could not start. */
export type FromSpawner =
  | { t: 'ready' }
  | { t: 'started'; id: number; pid: number }
  | { t: 'data'; id: number; fd: 1 | 2; chunk: Buffer }
  | { t: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null }
  | { t: 'error'; id: number; message: string; code?: string };

/** Output the spawner sends for one run before it waits for acknowledgements (then the run's pipes pause). */
export const OUTPUT_WINDOW_BYTES = 1024 * 1024;

const isId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

function isEnv(v: unknown): v is Record<string, string> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  return Object.values(v).every((s) => typeof s === 'string');
}

/** The spawner's one input check: exactly the shapes above, nothing else is acted on. */
export function isToSpawner(m: unknown): m is ToSpawner {
  if (typeof m !== 'object' || m === null) return false;
  const o = m as Record<string, unknown>;
  if (!isId(o.id)) return false;
  switch (o.t) {
    case 'run':
      return typeof o.file === 'string' && isStrings(o.args) && typeof o.cwd === 'string' && isEnv(o.env);
    case 'kill':
      return typeof o.signal === 'string' && /^SIG[A-Z0-9]+$/.test(o.signal);
    case 'ack':
      return Number.isSafeInteger(o.bytes) && (o.bytes as number) >= 0;
    default:
      return false;
  }
}
