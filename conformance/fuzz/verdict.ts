// What the oracles say of a trial: which oracle, the clause broken, the answer judged. A leaf, shared by
// the oracles (oracles.ts) and the generators that judge their own inputs (name-paths.ts).

export type Oracle =
  | 'closed' // the server closed the connection instead of answering
  | 'timeout' // no answer within the timeout
  | 'schema' // a frame that does not validate (result schema, error envelope)
  | 'error-code' // an error code the topic does not list, or not INVALID_REQUEST for a malformed request
  | 'accepted-invalid' // a result for params that break the schema
  | 'escape' // a result for a path outside the workspace
  | 'canary' // after a failure, the connection no longer answers
  | 'wrote' // a write topic changed the workspace on invalid params
  | 'wrote-outside' // something appeared beside the workspace
  | 'event-schema' // an event frame whose data does not validate against its event's schema
  | 'late-event' // an event of a name unsubscribed from, after the unsubscribe was answered (T42)
  | 'stray-event' // an event of a name the connection never subscribed to (T31)
  | 'echo' // an error to a malformed frame that does not echo topic/requestId as the spec says (R5, T7)
  | 'unanswered' // of two requests in flight with one requestId, one got no answer (T2)
  | 'extra-answer' // of two requests in flight with one requestId, more than two answers (T41)
  | 'reuse-refused' // the same request twice with one requestId, answered differently (the reading R9)
  | 'frame-limit' // a frame over the server's bound not closed with 1009, or one under it closed (H4)
  | 'name-path' // a name path or locator not answered as T43/T44 say (name-paths.ts)
  | 'budget' // a nav/findSymbol result longer than its maxAnswerChars (T46)
  | 'died'; // the server process (--launch) is gone

export interface Problem {
  oracle: Oracle;
  /** The clause broken (fixture `spec`). */
  clause: string;
  detail: string;
  /** `died`: the last frames sent before the server was found gone, oldest first (each cut, with its size). */
  lastFrames?: string[];
}

export type Answer =
  | { kind: 'frame'; text: string }
  | { kind: 'timeout'; ms: number }
  | { kind: 'closed'; code: number; reason: string };
