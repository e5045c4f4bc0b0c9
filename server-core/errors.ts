// The one way handlers signal bad input: the generated dispatcher turns a ProtocolError into an error
// reply with that code; anything else thrown becomes HANDLER_ERROR.
import { ProtocolError as SessionProtocolError } from '../runtime/server-session';
import { ProtocolError } from './protocol';

export { ProtocolError };

/**
 * INVALID_REQUEST; `details` are further fields of the error body (0.1.8: a name path's `candidates`).
 * The generated ProtocolError is the session's class typed per version, so the session sends them.
 */
export function invalidRequest(message: string, details?: Readonly<Record<string, unknown>>): ProtocolError {
  return new SessionProtocolError('INVALID_REQUEST', message, details) as ProtocolError;
}
