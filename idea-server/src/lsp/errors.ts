// What a caller of the LSP client can get besides an answer; each is meant to become a protocol error
// (HANDLER_ERROR with the message), never to take the host process down.

export type UnavailableReason = 'unconfigured' | 'missing' | 'failed' | 'crashed' | 'stopped' | 'unsupported';

/**
 * No usable language server for a language: not configured, command not found, failed to start, crashed
 * too often, or shut down; or (`unsupported`) one that runs but does not offer what was asked.
 */
export class LspUnavailableError extends Error {
  override readonly name = 'LspUnavailableError';
  constructor(
    readonly language: string,
    readonly reason: UnavailableReason,
    detail: string,
  ) {
    super(`language server unavailable for ${language}: ${detail}`);
  }
}

/** A request (or a start, or a wait for diagnostics) that took longer than its bound. */
export class LspTimeoutError extends Error {
  override readonly name = 'LspTimeoutError';
  constructor(
    what: string,
    readonly timeoutMs: number,
  ) {
    super(`${what} timed out after ${timeoutMs} ms`);
  }
}

/** The caller's AbortSignal fired. */
export class LspAbortError extends Error {
  override readonly name = 'AbortError';
  constructor(what: string) {
    super(`${what} was cancelled`);
  }
}

/** The file a request names cannot be sent to the server (missing, not a regular file, too large). */
export class LspFileError extends Error {
  override readonly name = 'LspFileError';
}

/** A position outside the file (the extension answers INVALID_REQUEST to these). */
export class LspPositionError extends Error {
  override readonly name = 'LspPositionError';
}
