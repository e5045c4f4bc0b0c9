// The frame validators of one protocol version, as one table (generated/<v>/frames.ts fills it), and
// the one reading of a server's frames that the client, the server session and the conformance runner
// share: which schema a frame is held to, and a one-line description of what is wrong with it.
import { describeValidationError, type SchemaError } from './validation-message.js';

/** An ajv standalone validator: checks only, never modifies the value. */
export type Validate = ((data: unknown) => boolean) & { errors?: readonly SchemaError[] | null };

export interface FrameValidators {
  /** The protocol version these schemas belong to (its spec folder's, without the "v"). */
  readonly version: string;
  readonly handshakeRequest: Validate;
  readonly handshakeSuccess: Validate;
  readonly handshakeFailure: Validate;
  readonly request: Validate;
  readonly responseSuccess: Validate;
  readonly responseError: Validate;
  /** Topic → validator of its params (every topic this version defines). */
  readonly params: ReadonlyMap<string, Validate>;
  /** Topic → validator of its result. */
  readonly results: ReadonlyMap<string, Validate>;
  /** Since 0.1.7: the event frame envelope (server → client). */
  readonly event?: Validate;
  /** Since 0.1.7: the cancel frame (client → server). */
  readonly cancel?: Validate;
  /** Since 0.1.7: event name → validator of its data. */
  readonly events?: ReadonlyMap<string, Validate>;
}

/** Validates `value`; undefined when it conforms, else one line naming the field under `root`. */
export function problemOf(validate: Validate, value: unknown, root: string): string | undefined {
  return validate(value) ? undefined : describeValidationError(validate.errors, root);
}

/** A JSON object (not null, not an array): what every frame and result must be. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A reply to a handshake: a failure when it carries `error`, else a success. Undefined when it
 * conforms to `frames`, else what is wrong, labelled ("handshake failure: error.code must be …").
 */
export function handshakeReplyProblem(frames: FrameValidators, reply: unknown): string | undefined {
  if (!isObject(reply)) return 'handshake reply is not a JSON object';
  if ('error' in reply) {
    const p = problemOf(frames.handshakeFailure, reply, '');
    return p === undefined ? undefined : `handshake failure: ${p}`;
  }
  const p = problemOf(frames.handshakeSuccess, reply, '');
  return p === undefined ? undefined : `handshake: ${p}`;
}

/**
 * A response to a request for `topic`: the error envelope, or the success envelope and then the
 * topic's result. A success for a topic the version does not define is a problem too.
 */
export function responseProblem(
  frames: FrameValidators,
  topic: string,
  msg: Record<string, unknown>,
): string | undefined {
  const to = topic === '' ? '' : ` to ${topic}`;
  if ('error' in msg) {
    const p = problemOf(frames.responseError, msg, '');
    return p === undefined ? undefined : `error response${to}: ${p}`;
  }
  const envelope = problemOf(frames.responseSuccess, msg, '');
  if (envelope !== undefined) return `response${to}: ${envelope}`;
  const validate = frames.results.get(topic);
  if (!validate) return `response for a topic protocol ${frames.version} does not define: ${topic}`;
  const p = problemOf(validate, msg.result, 'result');
  return p === undefined ? undefined : `result of ${topic}: ${p}`;
}

/**
 * Any frame a server sent, classified the protocol's way: `"type":"handshake"` is a handshake reply,
 * everything else a response (to the topic it names). Null when it conforms.
 */
export function serverFrameProblem(frames: FrameValidators, text: string): string | null {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return 'frame is not JSON';
  }
  if (!isObject(frame)) return 'frame is not a JSON object';
  if (frame.type === 'handshake') return handshakeReplyProblem(frames, frame) ?? null;
  if (frame.type === 'event' && frame.requestId === undefined && frames.event)
    return eventProblem(frames, frame) ?? null;
  return responseProblem(frames, typeof frame.topic === 'string' ? frame.topic : '', frame) ?? null;
}

/** An event frame (0.1.7 on): its envelope, then its data against the event's schema. Undefined when it conforms. */
export function eventProblem(frames: FrameValidators, msg: Record<string, unknown>): string | undefined {
  if (!frames.event) return `protocol ${frames.version} has no events`;
  const envelope = problemOf(frames.event, msg, '');
  if (envelope !== undefined) return `event: ${envelope}`;
  const validate = frames.events?.get(String(msg.event));
  if (!validate) return `event protocol ${frames.version} does not define: ${String(msg.event)}`;
  const p = problemOf(validate, msg.data, 'data');
  return p === undefined ? undefined : `event ${String(msg.event)}: ${p}`;
}
