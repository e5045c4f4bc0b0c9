// A request's signal bound to a client, as the session hook (gatedAsClient) makes one: work handed it
// counts as that client's at the fair limiters.
import { bindClient } from '../../../server-core/limits/client-context';

export function clientSignal(id: string): AbortSignal {
  const { signal } = new AbortController();
  bindClient(signal, id);
  return signal;
}
