// Validates every frame a server sends against the spec's schemas (the generated ajv validators) of
// the protocol version the server announced in its handshake: an older server is held to its own
// version's schemas (a v0.1.2 handshake has no authRequired), not to the newest.
import { existsSync, readFileSync } from 'node:fs';
import type { ValidationError } from '../../generated/v0.1.6/validators';
import { describeValidationError } from '../../runtime/validation-message';
import specIndex from '../../spec/v0.1.6/index.json';

type Validate = ((data: unknown) => boolean) & { errors?: ValidationError[] | null };
type ValidatorTable = Record<string, Validate | undefined>;

export const SPEC_VERSION: string = specIndex.version;
export const SPEC_TOPICS: { topic: string; since: string }[] = specIndex.topics.map((t) => ({ topic: t.topic, since: t.since }));

export interface FrameChecker {
  /** The version whose schemas are used (the newest one here when the server's is unknown). */
  readonly version: string;
  /** null when the frame is valid, else one line saying what is wrong. */
  check(text: string): string | null;
}

const GENERATED = new URL('../../generated/', import.meta.url);
const SPEC = new URL('../../spec/', import.meta.url);
const checkers = new Map<string, Promise<FrameChecker>>();

/** The checker for a server that announced `version`; versions without generated code here fall back to the newest. */
export function frameCheckerFor(version: string): Promise<FrameChecker> {
  const known = /^\d+\.\d+\.\d+$/.test(version) && existsSync(new URL(`v${version}/validators.js`, GENERATED));
  const v = known ? version : SPEC_VERSION;
  let checker = checkers.get(v);
  if (!checker) {
    checker = loadChecker(v);
    checkers.set(v, checker);
  }
  return checker;
}

async function loadChecker(version: string): Promise<FrameChecker> {
  const table = (await import(new URL(`v${version}/validators.js`, GENERATED).href)) as ValidatorTable;
  const index = JSON.parse(readFileSync(new URL(`v${version}/index.json`, SPEC), 'utf8')) as { topics: { topic: string; typeName: string }[] };
  const results = new Map(index.topics.map((t) => [t.topic, table[`validate${t.typeName}Result`]!]));
  return { version, check: (text) => checkFrame(table, results, text) };
}

/** Frames with `"type":"handshake"` are handshake replies; every other frame is a response. */
function checkFrame(table: ValidatorTable, results: Map<string, Validate>, text: string): string | null {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return 'frame is not JSON';
  }
  const run = (v: Validate, root: string, value: unknown, what: string): string | null =>
    v(value) ? null : `${what}: ${describeValidationError(v.errors ?? null, root)}`;
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) return 'frame is not a JSON object';
  const isError = 'error' in frame;
  if ((frame as { type?: unknown }).type === 'handshake') {
    return isError
      ? run(table.validateHandshakeFailure!, '', frame, 'handshake failure')
      : run(table.validateHandshakeSuccess!, '', frame, 'handshake success');
  }
  if (isError) return run(table.validateResponseError!, '', frame, 'error response');
  const envelope = run(table.validateResponseSuccess!, '', frame, 'response');
  if (envelope) return envelope;
  const { topic, result } = frame as { topic: string; result: unknown };
  const v = results.get(topic);
  if (!v) return `response for a topic this protocol version does not define: ${topic}`;
  return run(v, 'result', result, `result of ${topic}`);
}
