// The client scenarios: scripted servers doing what real ones do (idea-server answers a fast topic before
// a slow one; a language server pushes events between answers; a window reloads mid-request), each
// citing the clause it checks. Every scenario is also judged on the checks all share (judge.ts): the
// exit, the output, each line against what the server sent, every frame the client sent.
import { CURRENT_VERSION } from '../../generated/current';
import { NEWEST_VERSION, VERSIONS } from '../../generated/versions';
import { clauseSince } from '../lib/clauses';
import type { Check } from '../lib/types';
import { filesChanged, largeFindResult, resultFor } from './answers';
import type { RequestEntry } from './contract';
import type { ClientScenario } from './scenario';
import type { ArrivedRequest, ScriptIo } from './scripted-server';

const find = (pattern: string, more: Record<string, unknown> = {}): RequestEntry => ({
  topic: '/app/vscode/edit/find',
  params: { pattern, ...more },
});
const definition = (filePath: string, line: number, character: number): RequestEntry => ({
  topic: '/app/vscode/nav/definition',
  params: { filePath, line, character },
});
const FILES_CHANGED = '/app/vscode/files/changed';
const SERVED = CURRENT_VERSION;
/** The newest version before the token (T5): no authRequired, no cancel frames. */
const BEFORE_TOKENS = VERSIONS[VERSIONS.indexOf(clauseSince('T5') as (typeof VERSIONS)[number]) - 1]!;

/** The version after the newest this tree knows: a server newer than every client built from it. */
const NEWER = NEWEST_VERSION.replace(/\d+$/, (p) => String(Number(p) + 1));

const atOnce = (req: ArrivedRequest, io: ScriptIo) => io.result(req);

/**
 * Answers the first arrival of every entry in reverse order of arrival, once all have arrived or no new
 * one came for `graceMs` (a client sending one at a time is answered one at a time); again at once.
 */
function reversed(count: number, graceMs: number) {
  const held: ArrivedRequest[] = [];
  let generation = 0;
  const flush = (io: ScriptIo) => {
    for (const r of held.splice(0).reverse()) io.result(r);
  };
  return (req: ArrivedRequest, io: ScriptIo) => {
    if (req.attempt > 0) return io.result(req);
    held.push(req);
    const mine = ++generation;
    if (held.length === count) flush(io);
    else io.after(graceMs, () => mine === generation && flush(io));
  };
}

const check = (name: string, problems: string[]): Check => ({
  name,
  ok: problems.length === 0,
  ...(problems.length ? { detail: problems.join('\n') } : {}),
});

export const SCENARIOS: readonly ClientScenario[] = [
  {
    id: 'answers/out-of-order',
    description:
      'Three requests answered in the reverse of the order they arrived (idea-server answers a fast topic before a slow one): each answer belongs to the request whose requestId it carries.',
    clause: 'T2',
    requests: [find('conformance-first'), find('conformance-second'), find('conformance-third')],
    server: () => ({ version: SERVED, onRequest: reversed(3, 300) }),
  },
  {
    id: 'answers/error-then-result',
    description:
      'The first request is answered with an error, the second with a result 150 ms later: an error answers one request and the connection stays usable for the others.',
    clause: 'T1',
    requests: [find('conformance-fails'), find('conformance-succeeds')],
    server: () => ({
      version: SERVED,
      onRequest: (req, io) =>
        req.entry === 0 ? io.error(req, 'HANDLER_ERROR', 'the search failed') : io.after(150, () => io.result(req)),
    }),
    checks: (rp) => {
      // A client that gives up on its connection at the first error leaves the second request unanswered.
      const early = rp.requests.filter((r) => r.entry === 1 && r.answers.length === 0);
      return [
        check(
          'the connection stays usable after an error answer: every request on it is answered',
          early.map((r) => `request 2 on connection ${r.connection} went unanswered: the client closed it first`),
        ),
      ];
    },
  },
  {
    id: 'handshake/slow',
    description:
      'The server takes 2 s to answer the handshake: the client sends the handshake first, with its token, then waits for the answer before anything else.',
    clause: 'T3',
    requests: [find('conformance-after-hello'), definition('src/main.ts', 4, 10)],
    server: () => ({ version: SERVED, handshakeDelayMs: 2000, onRequest: atOnce }),
  },
  {
    id: 'handshake/wrong-token',
    description:
      'The server refuses the token (UNAUTHORIZED, then closes): the client reports UNAUTHORIZED for every request, sends nothing after the refusal and does not retry the token it was refused.',
    clause: 'C5',
    requests: [find('conformance-refused'), find('conformance-refused-too')],
    server: () => ({ version: SERVED, refuse: true, onRequest: atOnce }),
    checks: (rp) => [
      check(
        'a refused token is not tried again and again: at most one connection per request',
        rp.connections > 2 ? [`${rp.connections} connections for 2 requests, each refused`] : [],
      ),
    ],
  },
  {
    id: 'requests/valid-frames',
    description:
      'Four topics with params of every kind (strings, booleans, integers, a list, an enum): each request frame valid for its params schema, with its own requestId, to an advertised topic.',
    clause: 'C1',
    requests: [
      find('conformance-(\\w+)', { include: 'src/**/*.ts', isRegex: true, isCaseSensitive: false }),
      definition('src/shapes.ts', 12, 7),
      { topic: '/app/vscode/diag/list', params: { filePath: ['src/a.ts', 'src/b.ts'], severity: 'warning' } },
      { topic: '/app/vscode/fs/findFiles', params: { query: 'answer', maxResults: 5 } },
    ],
    // Answered after 30 ms, so that a client pipelining them has them all in flight at once.
    server: () => ({ version: SERVED, onRequest: (req, io) => io.after(30, () => io.result(req)) }),
  },
  {
    id: 'fields/unknown-in-results',
    description:
      'Results and errors carry fields no version defines, at the top level and nested: the client ignores them and reports what it received.',
    clause: 'C2',
    requests: [find('conformance-extra'), definition('src/main.ts', 1, 2), find('conformance-extra-error')],
    unknownFields: ['futureSummary', 'futureScore', 'futureKind', 'futureHint', 'futureTrace'],
    server: () => ({
      version: SERVED,
      onRequest: (req, io) => {
        if (req.entry === 2)
          return io.send(req.connection, {
            topic: req.topic,
            requestId: req.requestId,
            error: {
              code: 'HANDLER_ERROR',
              message: 'failed, with fields to ignore',
              futureHint: { retryAfterMs: 10 },
            },
            futureTrace: 'abc123',
          });
        const r = resultFor(req.topic, req.entry + 1) as Record<string, Record<string, unknown>[]>;
        const list = r.matches ?? r.locations!;
        list[0] = { ...list[0], futureScore: 0.75, futureKind: { name: 'nested', tags: ['a', 'b'] } };
        io.result(req, { ...r, futureSummary: { ranked: true, engine: 'next' } });
      },
    }),
  },
  {
    id: 'fields/unknown-in-handshake',
    description:
      'The handshake success carries fields no version defines (a server description, limits, a flag): the client ignores them and goes on.',
    clause: 'C2',
    requests: [find('conformance-greeted'), find('conformance-greeted-too')],
    unknownFields: [],
    server: () => ({
      version: SERVED,
      handshakeExtra: {
        serverInfo: { name: 'idea-conformance scripted server', build: '2026.12' },
        limits: { maxFrameBytes: 4194304, maxRequestsInFlight: 1000 },
        futureFlag: true,
      },
      onRequest: atOnce,
    }),
  },
  {
    id: 'events/between-answers',
    description:
      'Event frames arrive right after the handshake, between each request and its answer and after it, one with `dropped`: none of them is an answer.',
    clause: 'C3',
    requests: [find('conformance-busy-1'), find('conformance-busy-2'), find('conformance-busy-3')],
    server: () => {
      let n = 0;
      const event = (connection: number, io: ScriptIo, dropped?: number) =>
        io.send(connection, {
          type: 'event',
          event: FILES_CHANGED,
          data: filesChanged(++n),
          ...(dropped ? { dropped } : {}),
        });
      return {
        version: SERVED,
        events: [FILES_CHANGED],
        afterHandshake: (connection, io) => event(connection, io),
        onRequest: (req, io) => {
          event(req.connection, io, req.entry === 1 ? 3 : undefined);
          io.after(20, () => {
            event(req.connection, io);
            io.result(req);
            event(req.connection, io);
          });
        },
      };
    },
  },
  {
    id: 'errors/every-code',
    description:
      'A PARSE_ERROR frame with requestId "" (it answers nothing), then INVALID_REQUEST, UNKNOWN_TOPIC and HANDLER_ERROR for three requests: each reported with its code and message.',
    clause: 'C5',
    requests: [find('conformance-invalid'), find('conformance-unknown'), find('conformance-failing')],
    server: () => {
      const codes = ['INVALID_REQUEST', 'UNKNOWN_TOPIC', 'HANDLER_ERROR'] as const;
      const stray = new Set<number>();
      return {
        version: SERVED,
        onRequest: (req, io) => {
          if (!stray.has(req.connection)) {
            stray.add(req.connection);
            io.send(req.connection, {
              topic: '',
              requestId: '',
              error: { code: 'PARSE_ERROR', message: 'a frame that was not JSON' },
            });
          }
          io.after(10, () => io.error(req, codes[req.entry]!, `${codes[req.entry]} for request ${req.entry + 1}`));
        },
      };
    },
  },
  {
    id: 'errors/cancelled',
    description:
      'The first request is answered CANCELLED (the window stopped its work), the second with its result: CANCELLED ends the first, and nothing more is sent or waited for it.',
    clause: 'C4',
    requests: [find('conformance-cancelled'), find('conformance-finished')],
    server: () => ({
      version: SERVED,
      onRequest: (req, io) =>
        req.entry === 0 ? io.error(req, 'CANCELLED', 'the request was cancelled') : io.after(100, () => io.result(req)),
    }),
    checks: (rp) => {
      const again = rp.requests.filter((r) => r.entry === 0).length - 1;
      return [
        check(
          'a request answered CANCELLED is not sent again',
          again > 0 ? [`request 1 was sent ${again + 1} times, each answered CANCELLED`] : [],
        ),
      ];
    },
  },
  {
    id: 'transport/close-mid-request',
    description:
      'The server answers the first request, then closes the connection (1001) on the second before answering it: the client reports the second unanswered (or its answer, if it sent it again on a new connection) and exits.',
    clause: 'C7',
    requests: [find('conformance-before-close'), find('conformance-at-close')],
    server: () => ({
      version: SERVED,
      onRequest: (req, io) => {
        if (req.entry === 1 && req.attempt === 0) return io.close(req.connection, 1001, 'going away');
        io.result(req);
      },
    }),
  },
  {
    id: 'transport/frame-under-bound',
    description:
      'One answer of 4 MiB less 64 bytes (a search with many matches), just under the bound every client must take: received whole and reported as it came.',
    clause: 'C7',
    requests: [find('conformance-everything')],
    server: () => ({
      version: SERVED,
      onRequest: (req, io) => {
        const envelope = JSON.stringify({ topic: req.topic, requestId: req.requestId, result: {} }).length - 2;
        io.result(req, largeFindResult(req.entry + 1, 4 * 1024 * 1024 - 64, envelope));
      },
    }),
  },
  {
    id: 'versions/older-server',
    description: `A ${BEFORE_TOKENS} server (no authRequired in its handshake, its topics only, no cancel frames): the client speaks ${BEFORE_TOKENS} to it.`,
    clause: 'C8',
    requests: [
      find('conformance-old'),
      definition('src/main.ts', 2, 3),
      { topic: '/app/vscode/diag/list', params: {} },
    ],
    server: () => ({ version: BEFORE_TOKENS, onRequest: atOnce }),
  },
  {
    id: 'versions/newer-server',
    description: `A server announcing ${NEWER}, newer than any version this suite knows, a draft, advertising a topic and an event no known version has: the client goes on with what it knows.`,
    clause: 'C8',
    requests: [find('conformance-new'), definition('src/main.ts', 5, 6)],
    server: () => ({
      version: NEWER,
      draft: true,
      capabilities: [
        '/app/vscode/edit/find',
        '/app/vscode/nav/definition',
        '/app/vscode/diag/list',
        '/app/vscode/future/summarize',
      ],
      events: [FILES_CHANGED, '/app/vscode/future/changed'],
      onRequest: atOnce,
    }),
  },
  {
    id: 'security/loopback-only',
    description:
      'The url given names 0.0.0.0, which is not loopback (it reaches this machine all the same): the client refuses it before connecting, so the server never sees it nor its token, and reports every request unanswered.',
    clause: 'C6',
    host: '0.0.0.0',
    unreachable: true,
    requests: [find('conformance-not-sent')],
    server: () => ({ version: SERVED, onRequest: atOnce }),
    checks: (rp) => [
      check(
        'no connection to a url that is not loopback',
        rp.connections
          ? [
              `the client connected ${rp.connections} time(s) (Host ${rp.hosts.join(', ') || '?'}): whatever listens there gets its handshake and token`,
            ]
          : [],
      ),
    ],
  },
];
