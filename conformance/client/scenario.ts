// What a client scenario is: the requests the client is asked to send, the scripted server it meets, and
// any check of its own beyond the ones every scenario makes (judge.ts). The scenarios are scenarios.ts.
import type { Check } from '../lib/types';
import type { RequestEntry } from './contract';
import type { Replay } from './replay';
import type { ServerScript } from './scripted-server';

export interface ClientScenario {
  /** `<area>/<name>`, e.g. `answers/out-of-order`: what `--scenario` selects and the reports show. */
  id: string;
  description: string;
  /** The clause it checks (one binding clients: spec/v0.1.8/clauses.json). */
  clause: string;
  requests: RequestEntry[];
  /** The scripted server, made afresh for every run (a script keeps state); its capabilities default to every topic of its version. */
  server(): Omit<ServerScript, 'capabilities'> & { capabilities?: readonly string[] };
  /** The url the client is given names this host (the server's port): one that is not loopback (C6). */
  host?: string;
  /** The client must not reach the server at all (default: it must send every request). */
  unreachable?: boolean;
  /** Fields the server plants that a client may leave out of what it prints (C2: ignored). */
  unknownFields?: readonly string[];
  /** Checks of its own, from what the server saw. */
  checks?(replay: Replay): Check[];
}
