// The contract between `idea-conformance client` and the command it judges, kept stable (written out in
// conformance/docs/clients.md): for each scenario the runner starts a scripted server and then the
// command, with the server's url as its last argument and three variables in its environment; the
// command sends the requests and prints one JSON line per request, in the array's order, then exits 0.
import { isDeepStrictEqual } from 'node:util';

/** The variables the command finds in its environment. */
export const CONTRACT_ENV = {
  /** The token the scripted server takes (fresh for every scenario). */
  token: 'IDEA_TOKEN',
  /** The scenario's name, e.g. `answers/out-of-order` (for a client's own logs; it changes nothing). */
  scenario: 'IDEA_CONFORMANCE_SCENARIO',
  /** A JSON array of `{topic, params}`: the requests to send, the topic as the wire writes it. */
  requests: 'IDEA_CONFORMANCE_REQUESTS',
} as const;

/** Default bound on one run of the command: well above a correct client's slowest scenario (a 2 s handshake). */
export const DEFAULT_CLIENT_TIMEOUT_MS = 15_000;

/**
 * The code a client prints for a request it got no answer to: the connection closed first, its own
 * wait ran out, or it refused to connect at all (C6). Not a protocol error code: no server sends it.
 */
export const NO_ANSWER = 'NO_ANSWER';

/** One request the command is asked to send. */
export interface RequestEntry {
  topic: string;
  params: Record<string, unknown>;
}

/** One line of the command's output: what it received for one request. */
export type PrintedLine =
  | { kind: 'result'; result: unknown }
  | { kind: 'error'; code: string; message: unknown; error: Record<string, unknown> };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Characters of a line quoted in a problem (a line may be megabytes). */
const QUOTED = 200;
const quote = (s: string) => JSON.stringify(s.length > QUOTED ? `${s.slice(0, QUOTED)}…` : s);

/** One printed line, or what is wrong with it. */
export function parseLine(text: string): PrintedLine | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return `not JSON: ${quote(text)}`;
  }
  if (!isObject(v)) return `not a JSON object: ${quote(text)}`;
  const keys = Object.keys(v);
  if (keys.length !== 1 || (keys[0] !== 'result' && keys[0] !== 'error'))
    return `not {"result": …} or {"error": …} (keys: ${keys.join(', ') || 'none'}): ${quote(text)}`;
  if (keys[0] === 'result') return { kind: 'result', result: v.result };
  const error = v.error;
  if (!isObject(error) || typeof error.code !== 'string' || error.code === '')
    return `an "error" without a string "code": ${quote(text)}`;
  return { kind: 'error', code: error.code, message: error.message, error };
}

/**
 * The command's stdout as `count` lines (a last newline optional; CRLF taken as LF), or the problems:
 * a wrong number of lines, lines that are not JSON or not one of the two shapes.
 */
export function parseOutput(stdout: string, count: number): { lines: PrintedLine[] } | { problems: string[] } {
  const text = stdout.replace(/\r\n/g, '\n');
  const raw = text === '' ? [] : (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  const problems: string[] = [];
  if (raw.length !== count) problems.push(`${raw.length} lines printed for ${count} requests`);
  const lines: PrintedLine[] = [];
  raw.slice(0, Math.max(count, 0)).forEach((l, i) => {
    const p = parseLine(l);
    if (typeof p === 'string') problems.push(`line ${i + 1}: ${p}`);
    else lines.push(p);
  });
  return problems.length ? { problems: problems.slice(0, 10) } : { lines };
}

/**
 * The entry of the requests array a request frame is: the first with the same topic whose every params
 * field the frame's params carry, equal (a client may add fields of its own, e.g. defaults); -1 for
 * none. A scenario's entries never contain one another, so the pairing is unambiguous.
 */
export function entryOf(entries: readonly RequestEntry[], topic: string, params: unknown): number {
  const sent = isObject(params) ? params : {};
  return entries.findIndex(
    (e) =>
      e.topic === topic &&
      Object.entries(e.params).every(([k, v]) => Object.hasOwn(sent, k) && isDeepStrictEqual(sent[k], v)),
  );
}
