// Batches every frame sent on a `ws` socket within one tick into a single socket write.
//
// `ws` corks and uncorks the TCP socket around each frame, so N frames produced in one tick (a
// burst of replies, pipelined requests) cost N writev syscalls: ~22 % of each side's CPU in the
// pipelined bench (bench/FINDINGS.md). The first frame of a tick goes out at once; a second one corks
// the socket until process.nextTick, so the rest of the tick's frames leave in one more write. A lone
// frame (a reply, an event) is never held: a tick can be long in a busy host (VS Code's extension host
// runs other extensions' listeners in the same turn), and a frame corked until its end waits for all
// of it.
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

/** Returns a function to call right before each send on `ws`: from the tick's second send on, it corks the socket until the end of the tick. */
export function corkPerTick(ws: object): () => void {
  /** A frame was sent in this tick (reset when the tick ends). */
  let sent = false;
  let corked: Corkable | undefined;
  const endOfTick = () => {
    sent = false;
    const sock = corked;
    corked = undefined;
    sock?.uncork();
  };
  return () => {
    if (corked) return;
    if (!sent) {
      sent = true; // this one leaves at once
      process.nextTick(endOfTick);
      return;
    }
    const sock = socketOf(ws);
    if (!sock) return;
    corked = sock;
    sock.cork();
  };
}
