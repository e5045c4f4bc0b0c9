// Reconnect policy for the client engine (opt-in): when a connection drops without the client closing
// it, open a new one with exponential backoff and replay the handshake. Requests in flight when it
// dropped reject with IdeaClosedError (the server may or may not have done them: only the caller can
// decide to retry a write); requests made while reconnecting wait for the new connection, within
// their own timeout. A VS Code window reload restarts the server, usually with a new token and
// sometimes on another port, so each attempt may ask `endpoint()` where the server is now.

/** Where to connect; asked before every reconnect attempt when given. */
export interface Endpoint {
  url: string;
  token?: string;
}

export interface ReconnectOptions {
  /** First delay before reconnecting (ms). Default 100. */
  initialDelayMs?: number;
  /** Largest delay between attempts (ms). Default 5,000. */
  maxDelayMs?: number;
  /** Growth of the delay per failed attempt. Default 2. */
  factor?: number;
  /** Fraction of each delay taken off at random (0–1), so many clients do not retry in step. Default 0.2. */
  jitter?: number;
  /** Attempts before giving up (the client is then closed). Default Infinity. */
  maxAttempts?: number;
  /** Where the server is now (e.g. re-read discovery); default: the url and token first connected with. */
  endpoint?: () => Endpoint | Promise<Endpoint>;
}

export type ConnectionState = 'open' | 'reconnecting' | 'closed';

/** A state change: `attempt` and `error` describe the last failed attempt while reconnecting. */
export interface ConnectionStateEvent {
  state: ConnectionState;
  /** 1-based number of the next (reconnecting) or last (open, closed) attempt; 0 for the first connection. */
  attempt: number;
  /** Why the connection dropped, or why the last attempt failed. */
  error?: Error;
}

export interface ReconnectPolicy {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly factor: number;
  readonly jitter: number;
  readonly maxAttempts: number;
  readonly endpoint?: () => Endpoint | Promise<Endpoint>;
}

function bounded(v: number | undefined, fallback: number, min: number, max: number, what: string): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || Number.isNaN(v) || v < min || v > max)
    throw new RangeError(`reconnect.${what} must be a number in [${min}, ${max}], got ${String(v)}`);
  return v;
}

/** The policy for `reconnect: true | {...}`; undefined when reconnecting is off. Throws RangeError on bad values. */
export function reconnectPolicy(option: boolean | ReconnectOptions | undefined): ReconnectPolicy | undefined {
  if (option === undefined || option === false) return undefined;
  const o = option === true ? {} : option;
  const initialDelayMs = bounded(o.initialDelayMs, 100, 0, 3_600_000, 'initialDelayMs');
  const maxDelayMs = bounded(o.maxDelayMs, Math.max(5_000, initialDelayMs), initialDelayMs, 3_600_000, 'maxDelayMs');
  return {
    initialDelayMs,
    maxDelayMs,
    factor: bounded(o.factor, 2, 1, 100, 'factor'),
    jitter: bounded(o.jitter, 0.2, 0, 1, 'jitter'),
    maxAttempts: o.maxAttempts === undefined ? Infinity : bounded(o.maxAttempts, Infinity, 1, Infinity, 'maxAttempts'),
    ...(o.endpoint ? { endpoint: o.endpoint } : {}),
  };
}

/** Delay before attempt `attempt` (1-based): initial × factor^(attempt−1), capped, minus up to `jitter` of it. */
export function backoffDelay(policy: ReconnectPolicy, attempt: number, random: () => number = Math.random): number {
  const raw = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.factor ** Math.max(0, attempt - 1));
  return Math.round(raw * (1 - policy.jitter * random()));
}
