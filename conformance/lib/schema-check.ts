// Validates every frame a server sends against the spec's schemas (the generated ajv validators).
import * as validators from '../../generated/v0.1.6/validators';
import { describeValidationError } from '../../runtime/validation-message';
import specIndex from '../../spec/v0.1.6/index.json';

type Validate = ((data: unknown) => boolean) & { errors?: validators.ValidationError[] | null };
const table = validators as unknown as Record<string, Validate>;

/** topic → result validator, from the topic index's typeName. */
const resultValidators = new Map<string, Validate>(
  specIndex.topics.map((t) => [t.topic, table[`validate${t.typeName}Result`]!]),
);

export const SPEC_VERSION: string = specIndex.version;
export const SPEC_TOPICS: { topic: string; since: string }[] = specIndex.topics.map((t) => ({ topic: t.topic, since: t.since }));

/**
 * Returns null when the frame is valid, else one line saying what is wrong. Frames with
 * `"type":"handshake"` are handshake replies; every other frame is a response.
 */
export function checkFrame(text: string): string | null {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return 'frame is not JSON';
  }
  const run = (v: Validate, root: string, value: unknown, what: string): string | null =>
    v(value) ? null : `${what}: ${describeValidationError(v.errors ?? null, root)}`;
  const isObject = typeof frame === 'object' && frame !== null && !Array.isArray(frame);
  if (!isObject) return 'frame is not a JSON object';
  if ((frame as { type?: unknown }).type === 'handshake') {
    const isFailure = typeof frame === 'object' && frame !== null && 'error' in frame;
    return isFailure
      ? run(table.validateHandshakeFailure!, '', frame, 'handshake failure')
      : run(table.validateHandshakeSuccess!, '', frame, 'handshake success');
  }
  if (typeof frame === 'object' && frame !== null && 'error' in frame) return run(table.validateResponseError!, '', frame, 'error response');
  const envelope = run(table.validateResponseSuccess!, '', frame, 'response');
  if (envelope) return envelope;
  const { topic, result } = frame as { topic: string; result: unknown };
  const v = resultValidators.get(topic);
  if (!v) return `response for a topic the spec does not define: ${topic}`;
  return run(v, 'result', result, `result of ${topic}`);
}
