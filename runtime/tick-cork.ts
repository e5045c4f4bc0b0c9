// Batches every frame sent on a `ws` socket within one tick into a single socket write.
//
// `ws` corks and uncorks the TCP socket around each frame, so N frames produced in one tick (a
// burst of replies, pipelined requests) cost N writev syscalls: ~22 % of each side's CPU in the
// pipelined bench (bench/FINDINGS.md). Corking once per tick and uncorking on process.nextTick
// turns them into one write; a lone frame goes out in the same tick as before.
//
// `_socket` is a private field of ws 8: when it is absent (another WebSocket class, or not yet
// connected) this does nothing and frames go out one by one.

interface Corkable {
  cork(): void;
  uncork(): void;
}

function socketOf(ws: object): Corkable | undefined {
  const sock = (ws as { _socket?: unknown })._socket;
  return sock && typeof (sock as Corkable).cork === 'function' && typeof (sock as Corkable).uncork === 'function'
    ? (sock as Corkable)
    : undefined;
}

/** Returns a function to call right before each send on `ws`: it corks the socket until the end of the tick. */
export function corkPerTick(ws: object): () => void {
  let corked: Corkable | undefined;
  const uncork = () => {
    const sock = corked;
    corked = undefined;
    sock?.uncork();
  };
  return () => {
    if (corked) return;
    const sock = socketOf(ws);
    if (!sock) return;
    corked = sock;
    sock.cork();
    process.nextTick(uncork);
  };
}
