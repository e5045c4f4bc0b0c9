// A/B of the event fan-out's CPU per frame without sockets: 64 subscribed sessions, every event emitted
// to each, plain vs inside runtime/event-queue.ts shareEncoding (one JSON encoding per fan-out).
//   npx tsx bench/profiling/event-encoding.mts
import { type Handlers, SERVER_PROTOCOL } from '../../generated/current';
import { shareEncoding } from '../../runtime/event-queue';
import { ServerSession } from '../../runtime/server-session';
import { eventData, FANOUT_EVENT } from '../events/fanout-worker';

const sessions: ServerSession<Handlers>[] = [];
let sent = 0;
for (let i = 0; i < 64; i++) {
  const s = new ServerSession(SERVER_PROTOCOL, {
    handlers: {},
    auth: { required: false },
    workspaces: () => [],
    send: () => {
      sent++;
    },
    close: () => {},
    events: [FANOUT_EVENT],
    bufferedAmount: () => 0,
  });
  s.onFrame(JSON.stringify({ type: 'handshake' }));
  s.onFrame(
    JSON.stringify({ topic: '/app/vscode/events/subscribe', requestId: 's', params: { events: [FANOUT_EVENT] } }),
  );
  sessions.push(s);
}
const N = 20000;
for (let r = 0; r < 4; r++) {
  for (const share of [false, true]) {
    sent = 0;
    const t0 = performance.now();
    for (let i = 0; i < N; i++) {
      const d = eventData(i);
      const loop = () => {
        for (const s of sessions) s.emit(FANOUT_EVENT, d);
      };
      if (share) shareEncoding(FANOUT_EVENT, d, loop);
      else loop();
    }
    const ms = performance.now() - t0;
    console.log(`share=${share} ${((1000 * ms) / (N * 64)).toFixed(3)} µs/frame (${sent} frames)`);
  }
}
