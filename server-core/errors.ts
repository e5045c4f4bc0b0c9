// The one way handlers signal bad input: the generated dispatcher turns a ProtocolError into an error
// reply with that code; anything else thrown becomes HANDLER_ERROR.
import { ProtocolError } from './protocol';

export { ProtocolError };

export function invalidRequest(message: string): ProtocolError {
  return new ProtocolError('INVALID_REQUEST', message);
}
