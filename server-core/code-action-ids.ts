// The code actions edit/codeActions listed, by id, per connection (clause T54): what edit/applyCodeAction
// takes back. An id is good only on the connection it was given to and for 10 minutes; the file it was
// listed for must still hold what it held then (its sha256, checked by the handler). Bounded: each
// connection keeps its newest MAX_PER_CLIENT ids, and the table the MAX_CLIENTS connections that listed
// most recently, so a client listing in a loop, or many connections, cannot grow it without end.
import { randomBytes } from 'node:crypto';
import type { CodeActionOffer } from './host';

/** How long an id is good (T54: one over 10 minutes old is refused). */
export const CODE_ACTION_TTL_MS = 10 * 60_000;
/** Most ids a connection keeps (the oldest dropped first). */
export const MAX_PER_CLIENT = 2_000;
/** Most connections whose ids are kept (the one that listed least recently dropped first). */
export const MAX_CLIENTS = 128;

/** A listed action, as kept for its id. */
export interface ListedCodeAction {
  /** The file it was listed for (absolute). */
  path: string;
  /** The sha256 of the file's bytes when it was listed. */
  sha256: string;
  offer: CodeActionOffer;
  listedAt: number;
}

export class CodeActionIds {
  /** Per client, ids in the order given (a Map keeps insertion order: the oldest first). */
  private readonly clients = new Map<string, Map<string, ListedCodeAction>>();
  private counter = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly limits = { ttlMs: CODE_ACTION_TTL_MS, perClient: MAX_PER_CLIENT, clients: MAX_CLIENTS },
  ) {}

  /** Keeps `action` for `client` and answers its id ("ca-<n>-<random>": unique on the server, not guessable). */
  add(client: string, action: Omit<ListedCodeAction, 'listedAt'>): string {
    let ids = this.clients.get(client);
    if (ids) this.clients.delete(client); // re-inserted below: the most recent last
    ids ??= new Map();
    this.clients.set(client, ids);
    for (const [oldest] of this.clients) {
      if (this.clients.size <= this.limits.clients) break;
      this.clients.delete(oldest);
    }
    this.sweep(ids);
    const id = `ca-${++this.counter}-${randomBytes(6).toString('hex')}`;
    ids.set(id, { ...action, listedAt: this.now() });
    for (const [oldest] of ids) {
      if (ids.size <= this.limits.perClient) break;
      ids.delete(oldest);
    }
    return id;
  }

  /** The action `client` was given `id` for, while it is good; undefined otherwise (unknown, another connection's, expired). */
  get(client: string, id: string): ListedCodeAction | undefined {
    const ids = this.clients.get(client);
    if (!ids) return undefined;
    this.sweep(ids);
    return ids.get(id);
  }

  /** Ids kept, in all (tests, monitoring). */
  get size(): number {
    let n = 0;
    for (const ids of this.clients.values()) n += ids.size;
    return n;
  }

  /** Drops the client's expired ids (the oldest are first, so the sweep stops at the first good one). */
  private sweep(ids: Map<string, ListedCodeAction>): void {
    const oldest = this.now() - this.limits.ttlMs;
    for (const [id, a] of ids) {
      if (a.listedAt >= oldest) break;
      ids.delete(id);
    }
  }
}
