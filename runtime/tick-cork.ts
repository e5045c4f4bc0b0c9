// Batches the frames sent on a `ws` socket within one tick into few socket writes, without delaying
// a lone frame.
//
// `ws` corks and uncorks the TCP socket around each frame, so N frames produced in one tick (a
// burst of replies, pipelined requests) cost N writev syscalls: ~22 % of each side's CPU in the
// pipelined bench (bench/FINDINGS.md). The first frame of a tick is written at once (a sequential
// request or its reply reaches the kernel as early as with plain ws); only from the second frame on
// the socket is corked, and uncorked on process.nextTick, so a burst costs two writes, not N.
//
// `_socket` is a private field of ws 8: when it is absent (another WebSocket class, or not yet
// connected) this does nothing and frames go out one by one.

interface Corkable {
  cork(): void;
  uncork(): void;
}

function socketOf(ws: object): Corkable | undefined {
  const sock = (ws as { _socket?: unknown })._socket;
  return sock && typeof (sock as Corkable).cork === "function" && typeof (sock as Corkable).uncork === "function"
    ? (sock as Corkable)
    : undefined;
}

/** Returns a function to call right before each send on `ws`: from the second send of a tick on, it corks the socket until the end of the tick. */
export function corkPerTick(ws: object): () => void {
  // "idle": nothing sent this tick; "sent": one frame went straight out; "corked": later frames wait.
  let state: "idle" | "sent" | "corked" = "idle";
  let corked: Corkable | undefined;
  const endOfTick = () => {
    const sock = corked;
    state = "idle";
    corked = undefined;
    sock?.uncork();
  };
  return () => {
    if (state === "corked") return;
    if (state === "idle") {
      state = "sent";
      process.nextTick(endOfTick);
      return;
    }
    const sock = socketOf(ws);
    if (!sock) return;
    state = "corked";
    corked = sock;
    sock.cork();
  };
}
