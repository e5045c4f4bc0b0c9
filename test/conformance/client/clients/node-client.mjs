#!/usr/bin/env node
// A small IDEA client on `ws` that keeps the client contract (conformance/docs/clients.md) and passes
// every scenario, and, with `--bug <name>`, the deliberately broken clients: each bug one way real
// clients go wrong, meant to fail one scenario (the table of bugs and scenarios is scenarios.test.ts's).
//   node node-client.mjs [--bug <name>] <url>
import WebSocket from 'ws';

const args = process.argv.slice(2);
const bugAt = args.indexOf('--bug');
const bug = bugAt >= 0 ? args[bugAt + 1] : undefined;
const has = (name) => bug === name;
if (has('crash')) throw new Error('this client crashes on start');

const url = args.at(-1);
const requests = JSON.parse(process.env.IDEA_CONFORMANCE_REQUESTS ?? '[]');
const lines = Array.from({ length: requests.length }, () => undefined);
const noAnswer = (why) => ({ error: { code: 'NO_ANSWER', message: why } });
const KNOWN_HANDSHAKE = ['type', 'version', 'authRequired', 'capabilities', 'workspaces', 'events', 'draft'];
const KNOWN_RESULT = new Set(
  'matches totalCount filePath line character lineText locations endLine endCharacter code diagnostics severity message source files fileName relativePath'.split(
    ' ',
  ),
);
const unknownIn = (v) =>
  Array.isArray(v)
    ? v.some(unknownIn)
    : v !== null && typeof v === 'object' && Object.entries(v).some(([k, x]) => !KNOWN_RESULT.has(k) || unknownIn(x));

let finished = false;
function finish(why) {
  if (finished) return;
  finished = true;
  const out = has('garbage') ? 'all good\n' : lines.map((l) => `${JSON.stringify(l ?? noAnswer(why))}\n`).join('');
  // Exit once stdout has taken it all: a pipe is written asynchronously, and exit() would cut it.
  process.stdout.write(out, () => process.exit(0));
}

if (!has('any-host') && !/^ws:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}\/?$/.test(url))
  finish(`not a loopback url: ${url}`);
else connect();

function connect() {
  // C7: every wait bounded. The bugs that wait forever have no bound, and something keeps them waiting.
  if (has('hangs-on-close') || has('cancelled-waits')) setInterval(() => undefined, 60_000);
  else setTimeout(() => finish('no answer within 8 s'), 8000).unref();

  const ws = new WebSocket(url, { maxPayload: has('small-frames') ? 1024 * 1024 : 16 * 1024 * 1024 });
  const pending = new Map(); // requestId → index of the request
  const order = []; // indices in the order sent (what the order-matching bugs pair by)
  let open = false;

  function sendAll() {
    requests.forEach((r, i) => {
      const requestId = has('one-id') ? 'the-one-id' : `req-${i + 1}-${Math.random().toString(36).slice(2)}`;
      const params = has('stringly')
        ? Object.fromEntries(Object.entries(r.params).map(([k, v]) => [k, typeof v === 'object' ? v : String(v)]))
        : r.params;
      pending.set(requestId, i);
      order.push(i);
      ws.send(JSON.stringify({ topic: r.topic, requestId, params }));
      // Cancels its first request at once (yet takes its answer if it comes): a cancel frame is valid from 0.1.7 on only.
      if (has('cancels-anyway') && i === 0) ws.send(JSON.stringify({ type: 'cancel', requestId }));
    });
  }

  const done = () => lines.every((l) => l !== undefined);

  ws.on('open', () => {
    ws.send(
      JSON.stringify(has('no-token') ? { type: 'handshake' } : { type: 'handshake', token: process.env.IDEA_TOKEN }),
    );
    if (has('eager')) sendAll();
  });

  ws.on('message', (data) => {
    const msg = JSON.parse(String(data));
    if (!open) {
      if (msg.type !== 'handshake') return;
      if (msg.error) {
        if (!has('refusal-as-closed')) lines.fill({ error: msg.error });
        return finish('the connection closed');
      }
      const refuse =
        (has('strict-handshake') && Object.keys(msg).some((k) => !KNOWN_HANDSHAKE.includes(k))) ||
        (has('requires-auth') && typeof msg.authRequired !== 'boolean') ||
        (has('version-pinned') && msg.version !== '0.1.7');
      if (refuse) {
        ws.close();
        return finish('the handshake is not one this client takes');
      }
      open = true;
      if (!has('eager')) sendAll();
      return;
    }
    let i;
    if (msg.type === 'event') {
      if (has('event-as-answer')) i = order.shift();
    } else if (typeof msg.requestId === 'string' && msg.requestId !== '') {
      if (has('by-order')) i = order.shift();
      else {
        i = pending.get(msg.requestId);
        pending.delete(msg.requestId);
      }
    }
    if (i === undefined || lines[i] !== undefined) return;
    if (msg.error) {
      if (has('cancelled-waits') && msg.error.code === 'CANCELLED') return;
      lines[i] = { error: has('code-lost') ? { code: 'HANDLER_ERROR', message: msg.error.message } : msg.error };
      if (has('error-closes')) {
        ws.close();
        return finish('the connection was given up after an error');
      }
    } else if (has('strict-fields') && unknownIn(msg.result)) lines[i] = noAnswer('a result with unknown fields');
    else lines[i] = { result: msg.result ?? (msg.type === 'event' ? msg.data : undefined) };
    if (done()) {
      ws.close();
      finish();
    }
  });

  ws.on('close', () => {
    if (!has('hangs-on-close')) finish('the connection closed');
  });
  ws.on('error', (e) => {
    if (!has('hangs-on-close')) finish(`connection error: ${e.message}`);
  });
}
