// Errors a client call can reject with.

/**
 * The server answered with an error envelope (or a handshake failure). `Code` is the version's
 * ErrorCode union in the generated clients (generated/<v>/client.ts re-exports this class typed so).
 */
export class IdeaProtocolError<Code extends string = string> extends Error {
  override readonly name = 'IdeaProtocolError';
  constructor(
    /** Protocol error code, e.g. "INVALID_REQUEST", "UNAUTHORIZED". */
    readonly code: Code,
    message: string,
    readonly topic: string,
    readonly requestId: string,
    /** The error body as received: `code`, `message` and any field its version adds (0.1.8: `candidates`). */
    readonly body?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}

/** The connection closed (or could not open) before the answer arrived. */
export class IdeaClosedError extends Error {
  override readonly name = 'IdeaClosedError';
  constructor(
    message: string,
    readonly closeCode?: number,
    readonly closeReason?: string,
  ) {
    super(message);
  }
}

/** No answer within the request's timeout. */
export class IdeaTimeoutError extends Error {
  override readonly name = 'IdeaTimeoutError';
  constructor(
    message: string,
    readonly topic: string,
    readonly requestId: string,
  ) {
    super(message);
  }
}

/** The client validates incoming frames and one did not conform to the schemas. */
export class IdeaValidationError extends Error {
  override readonly name = 'IdeaValidationError';
  constructor(
    message: string,
    readonly frame: unknown,
  ) {
    super(message);
  }
}
