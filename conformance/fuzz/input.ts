// What a fuzz input is, shared by the generators (generate.ts, frames.ts, duplicates.ts, sizes.ts, events.ts),
// the oracles and the findings: one request, and how it goes out. A leaf: it imports nothing of the fuzzer.

export type FrameRule =
  | 'requestId-missing'
  | 'requestId-not-string'
  | 'requestId-empty'
  | 'requestId-long'
  | 'topic-missing'
  | 'topic-not-string'
  | 'topic-unknown'
  | 'extra-fields'
  | 'not-json'
  | 'not-object';

export interface MalformedFrame {
  rule: FrameRule;
  /** requestId-long: the id's length; not-json / not-object: the text sent. */
  size?: number;
  text?: string;
}

/** Which constraint an invalid input breaks: type/required/params are malformed requests (T8), the rest unusable values (T10). */
export type BrokenRule = 'type' | 'required' | 'params' | 'range' | 'pattern' | 'enum';

/** One request as generated: a topic and its params, labelled when they break one constraint. */
export interface Carried {
  topic: string;
  params: unknown;
  /** Set when the params break one constraint of the schema. */
  invalid?: { field: string; rule: BrokenRule };
}

/** A subscription trial (events.ts): the input's params subscribe; edits before and after the unsubscribe. */
export interface SubscriptionPlan {
  /** An edit/replace between subscribe and unsubscribe (its events must validate). */
  editBefore: boolean;
  /** The events/unsubscribe params: `{}` for every event, or `{events}`. */
  unsubscribe: Record<string, unknown>;
  /** An edit/replace once the unsubscribe is answered (nothing unsubscribed may report it). */
  editAfter: boolean;
}

/** What a request that names a symbol carries (name-paths.ts), for its oracle. */
export type NamePathLabel =
  /** A symbol's own name path, as the server listed it: it matches that symbol alone. */
  | { kind: 'own'; own: string }
  /** A suffix of a symbol's own name path: it matches that symbol, maybe others. */
  | { kind: 'suffix'; own: string }
  /** Refused by the parser: INVALID_REQUEST naming character `at`. */
  | { kind: 'malformed'; at: number; problem: string }
  /** namePath with line or character: INVALID_REQUEST (T44). */
  | { kind: 'both-forms' }
  /** Neither namePath nor line and character: INVALID_REQUEST (T44). */
  | { kind: 'no-form' };

export interface FuzzInput extends Carried {
  /** Set when the request goes out inside a malformed frame (frames.ts). */
  frame?: MalformedFrame;
  /** Set for two requests in flight with one requestId (duplicates.ts): the second, or null for this one twice. */
  duplicate?: { other: Carried | null };
  /**
   * Set for the request padded with JSON whitespace to a size near the server's frame bound (sizes.ts):
   * `offset` bytes under the largest size answered, or over the smallest size closed.
   */
  size?: { over: boolean; offset: number };
  /** Set for a subscription trial (events.ts): params are events/subscribe's. */
  subscription?: SubscriptionPlan;
  /** Set when the request names a symbol (name-paths.ts): what its name path is, for its oracle. */
  namePath?: NamePathLabel;
}

/** The request an input carries, without its framing. */
export function carried(input: Carried): Carried {
  return { topic: input.topic, params: input.params, ...(input.invalid ? { invalid: input.invalid } : {}) };
}

/**
 * What a finding is about, for deduplication: the topic, and how it went out (frame rule, duplicate id).
 * A padded frame's is its side of the size bound alone: the size is the point, whatever the request.
 */
export function subjectOf(input: FuzzInput): string {
  if (input.size) return `frame size:${input.size.over ? 'over' : 'under'}`;
  if (input.frame) return `${input.topic} frame:${input.frame.rule}`;
  if (input.duplicate) return `${input.topic} duplicate-id`;
  if (input.namePath) return `${input.topic} name-path:${input.namePath.kind}`;
  return input.topic;
}

/**
 * Whether what a case written from the input expects follows from its params' label (valid, or which
 * rule they break): a plain request and two with one requestId. A malformed frame, a padded one and a
 * subscription are judged by how they go out, whatever their params.
 */
export function expectsByLabel(input: FuzzInput): boolean {
  return !input.frame && !input.size && !input.subscription;
}
