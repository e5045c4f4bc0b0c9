// clause T41 (with T33, H18): every request is answered exactly once whenever its cancel comes, and a
// write answered CANCELLED changed nothing. A write handler holds its cancel answer
// (ctx.holdCancelAnswer, runtime/server-session.ts; the write path does it, server-core/write/
// workspace-write.ts): a cancel before the commit point is answered CANCELLED only once the rollback is
// done, one that races the last file's replacement gets the result. Deterministic: the tests stop the
// work at the transaction's afterEach seam, or at the host hooks the write path calls (isDirty right
// before each file is replaced, afterWrite after the commit), send the cancel there, and look at the
// disk at the instant each frame is sent.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CURRENT_VERSION, type Handlers, ProtocolError, ServerSession } from '../../generated/current';
import { coreContext } from '../../server-core/context';
import { createCoreHandlers } from '../../server-core/handlers';
import { applyAllOrNothing, type PlannedWrite } from '../../server-core/write/transaction';
import { BACKUP_SOURCES, writeFiles } from '../../server-core/write/workspace-write';
import { type FakeHost, fakeHost } from '../server-core/fake-host';
import { silence, timed, until } from '../support/wait';

const TOKEN = '3f2b8c1e-5d4a-4e7b-9c1a-2b3c4d5e6f70';
const REPLACE = '/app/vscode/edit/replace';
const FIND = '/app/vscode/edit/find';
const NAMES = ['a.txt', 'b.txt', 'c.txt'];
const BEFORE = NAMES.map((n) => `old needle in ${n}\n`);
const AFTER = NAMES.map((n) => `old pin in ${n}\n`);

type Frame = Record<string, unknown>;

let root: string;
let files: string[];
let host: FakeHost;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'idea-cancel-write-'));
  mkdirSync(join(root, 'ws'), { recursive: true });
  files = NAMES.map((n) => join(root, 'ws', n));
  for (const [i, f] of files.entries()) writeFileSync(f, BEFORE[i]!);
  host = fakeHost(root);
  host.tools.ripgrep = null; // the same search in JavaScript: no process to wait for
});
afterEach(async () => {
  // A failed test must not leave work stopped at a seam: the write queue is shared by every test.
  for (const open of gates.splice(0)) open();
  await until('the handlers of the test to settle', () => sessions.every((s) => s.pendingRequests === 0));
  let ended = false;
  void Promise.allSettled(background.splice(0)).then(() => (ended = true));
  await until('the writes the test started itself to end', () => ended);
  sessions.length = 0;
  rmSync(root, { recursive: true, force: true });
});

/** The sessions of the running test, and the writes it started outside them (awaited by afterEach). */
const sessions: ServerSession[] = [];
const background: Promise<unknown>[] = [];

/** Every file's content now ("<not a file>" when it is something else). */
function disk(): string[] {
  return files.map((f) => {
    try {
      return readFileSync(f, 'utf8');
    } catch {
      return '<not a file>';
    }
  });
}

/** Every deferred of the running test, opened by afterEach whatever the test did. */
const gates: (() => void)[] = [];

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  gates.push(resolve);
  return { promise, resolve };
}

interface Peer {
  session: ServerSession;
  sent: Frame[];
  /** disk() at the instant each frame was sent. */
  diskAtSend: string[][];
  cancel(requestId: string): void;
}

function peer(handlers: Partial<Handlers>): Peer {
  const sent: Frame[] = [];
  const diskAtSend: string[][] = [];
  const session = new ServerSession({
    handlers,
    auth: { required: true, token: TOKEN },
    workspaces: () => [join(root, 'ws')],
    send: (f) => {
      diskAtSend.push(disk());
      sent.push(JSON.parse(f) as Frame);
    },
    close: () => undefined,
  });
  sessions.push(session);
  session.onFrame(JSON.stringify({ type: 'handshake', token: TOKEN }));
  expect(sent.shift()).toMatchObject({ type: 'handshake', version: CURRENT_VERSION });
  diskAtSend.shift();
  return {
    session,
    sent,
    diskAtSend,
    cancel: (requestId) => session.onFrame(JSON.stringify({ type: 'cancel', requestId })),
  };
}

const replace = (requestId: string) =>
  JSON.stringify({ topic: REPLACE, requestId, params: { pattern: 'needle', replacement: 'pin' } });
const cancelled = (topic: string, requestId: string) => ({
  topic,
  requestId,
  error: { code: 'CANCELLED', message: 'cancelled by the client' },
});
const plans = (): PlannedWrite[] =>
  files.map((f, i) => ({ path: f, target: f, before: Buffer.from(BEFORE[i]!), after: Buffer.from(AFTER[i]!) }));
const replaceResult = { replacedCount: 3, affectedFiles: NAMES.map((n) => join('ws', n)) };

/** The session's cancel bookkeeping (H18: nothing left behind once answered). */
const leftBehind = (s: ServerSession) => {
  const internals = s as unknown as { byId: Map<string, unknown>; running: Set<unknown> };
  return { byId: internals.byId.size, running: internals.running.size, pending: s.pendingRequests };
};

/**
 * Waits until the first answer was sent; says how long that took from the call (the latency a window
 * for a second one is sized from).
 */
async function firstAnswer(p: Peer): Promise<number> {
  const { ms } = await timed(() => until('the answer', () => p.sent.length > 0, { intervalMs: 2, maxIntervalMs: 2 }));
  return ms;
}

/**
 * The window for a second answer, which must never come: the request has left the session (its
 * handler settled; the session sends its answer in the same turn), and then a few times the latency
 * of the answer that did come, for anything still on its way.
 */
async function noSecondAnswer(p: Peer, answerMs: number): Promise<void> {
  await until('the request to leave the session', () => p.session.pendingRequests === 0, {
    detail: () => leftBehind(p.session),
  });
  await silence(answerMs, { factor: 4, floorMs: 20 });
}

/**
 * A write topic as the write path runs it: holds its cancel answer, then writes the three files in one
 * transaction whose afterEach seam the test controls.
 */
function seamWrite(afterEachFile: (index: number) => Promise<void> | void): Partial<Handlers> {
  return {
    editReplace: async (_params, ctx) => {
      ctx.holdCancelAnswer?.();
      await applyAllOrNothing(plans(), {
        stateDir: join(root, 'state'),
        what: 'edit/replace',
        signal: ctx.signal,
        afterEach: (_w, i) => afterEachFile(i),
      });
      return replaceResult;
    },
  };
}

describe('a held write: the session and the transaction', () => {
  it('a cancel during a multi-file write is answered CANCELLED only once every file is restored', async () => {
    const reached = deferred();
    const release = deferred();
    const p = peer(
      seamWrite(async (i) => {
        if (i !== 0) return;
        reached.resolve();
        await release.promise;
      }),
    );
    p.session.onFrame(replace('w1'));
    await reached.promise;
    expect(disk()[0]).toBe(AFTER[0]); // the first file is replaced: the write is half done
    p.cancel('w1');
    release.resolve();
    const answerMs = await firstAnswer(p);
    expect(p.sent).toEqual([cancelled(REPLACE, 'w1')]);
    // The instant CANCELLED was sent, every file was as before the request.
    expect(p.diskAtSend).toEqual([BEFORE]);
    await noSecondAnswer(p, answerMs);
    expect(p.sent).toHaveLength(1);
    expect(leftBehind(p.session)).toEqual({ byId: 0, running: 0, pending: 0 });
  });

  it('a cancel racing the last file: exactly one answer, the result, and every file changed', async () => {
    const reached = deferred();
    const release = deferred();
    const p = peer(
      seamWrite(async (i) => {
        if (i !== 2) return;
        reached.resolve();
        await release.promise;
      }),
    );
    p.session.onFrame(replace('w1'));
    await reached.promise;
    p.cancel('w1'); // the last file's replacement has begun (here: ended): past the commit point
    expect(p.sent).toEqual([]); // held: no CANCELLED now
    release.resolve();
    const answerMs = await firstAnswer(p);
    expect(p.sent).toEqual([{ topic: REPLACE, requestId: 'w1', result: replaceResult }]);
    expect(p.diskAtSend).toEqual([AFTER]);
    // After the answer a cancel is unknown: no frame.
    p.cancel('w1');
    await noSecondAnswer(p, answerMs);
    expect(p.sent).toHaveLength(1);
    expect(disk()).toEqual(AFTER);
    expect(leftBehind(p.session)).toEqual({ byId: 0, running: 0, pending: 0 });
  });

  it('a cancel before any write (still planning): CANCELLED at once, nothing written, nothing kept', async () => {
    const planning = deferred();
    const planned = deferred();
    const core = coreContext(host);
    let started = false;
    const p = peer({
      editReplace: async (_params, ctx) => {
        started = true;
        await planning.promise; // reading, matching: nothing written yet
        await writeFiles(core, plans(), {
          what: 'edit/replace',
          recordResult: true,
          backupSource: 'x',
          request: ctx,
        }).finally(planned.resolve);
        return replaceResult;
      },
    });
    p.session.onFrame(replace('w1'));
    await until('the handler to start', () => started);
    p.cancel('w1');
    // Not held yet: answered at once, like a read (nothing was changed, and nothing will be).
    expect(p.sent).toEqual([cancelled(REPLACE, 'w1')]);
    // The handler's own end is where a second answer would come from: the window is sized from it.
    const { ms: answerMs } = await timed(async () => {
      planning.resolve();
      await planned.promise;
    });
    await noSecondAnswer(p, answerMs);
    expect(p.sent).toHaveLength(1);
    expect(disk()).toEqual(BEFORE);
    expect(files.flatMap((f) => core.history.list(f))).toEqual([]);
    expect(leftBehind(p.session)).toEqual({ byId: 0, running: 0, pending: 0 });
  });

  it('a cancel while the write waits its turn behind another: CANCELLED at once, nothing written then or later', async () => {
    // The first write (another client's, through the same write path) is stopped in its afterWrite.
    const firstCaughtUp = deferred();
    const releaseFirst = deferred();
    const other = join(root, 'ws', 'other.txt');
    writeFileSync(other, 'other\n');
    let blocked = false;
    host.documents.afterWrite = async (path) => {
      if (path !== other || blocked) return;
      blocked = true;
      firstCaughtUp.resolve();
      await releaseFirst.promise;
    };
    const core = coreContext(host);
    const first = writeFiles(
      core,
      [{ path: other, target: other, before: Buffer.from('other\n'), after: Buffer.from('other 2\n') }],
      { what: 'edit/replace', recordResult: false, backupSource: BACKUP_SOURCES.replace },
    );
    first.catch(() => undefined); // awaited below; a failing test must not leave it unhandled
    background.push(first);
    await firstCaughtUp.promise;
    let queued = false;
    const p = peer({
      editReplace: async (_params, ctx) => {
        queued = true; // the write queues behind the first as it is called
        await writeFiles(core, plans(), {
          what: 'edit/replace',
          recordResult: false,
          backupSource: BACKUP_SOURCES.replace,
          request: ctx,
        });
        return replaceResult;
      },
    });
    p.session.onFrame(replace('w1'));
    await until('the write to queue behind the first', () => queued);
    p.cancel('w1');
    // Not held behind the other write: its turn has not come, so nothing of it can have been written.
    const answerMs = await firstAnswer(p);
    expect(p.sent).toEqual([cancelled(REPLACE, 'w1')]);
    expect(p.diskAtSend).toEqual([BEFORE]);
    releaseFirst.resolve();
    await first;
    await noSecondAnswer(p, answerMs);
    expect(p.sent).toHaveLength(1);
    expect(disk()).toEqual(BEFORE); // its turn came and went: refused before touching anything
  });

  it('a read topic is still answered CANCELLED at once, its own answer dropped', async () => {
    const release = deferred();
    let started = false;
    let settled = false;
    const p = peer({
      editFind: async () => {
        started = true;
        await release.promise;
        settled = true;
        return { matches: [], totalCount: 0 };
      },
    });
    p.session.onFrame(JSON.stringify({ topic: FIND, requestId: 'r1', params: { pattern: 'x' } }));
    await until('the handler to start', () => started);
    p.cancel('r1');
    expect(p.sent).toEqual([cancelled(FIND, 'r1')]);
    expect(settled).toBe(false);
    const { ms: answerMs } = await timed(async () => {
      release.resolve();
      await until('the handler', () => settled, { intervalMs: 2, maxIntervalMs: 2 });
    });
    await noSecondAnswer(p, answerMs);
    expect(p.sent).toHaveLength(1);
    expect(leftBehind(p.session)).toEqual({ byId: 0, running: 0, pending: 0 });
  });

  it('after a held CANCELLED a second cancel sends nothing', async () => {
    const release = deferred();
    let held = false;
    const p = peer({
      editReplace: async (_params, ctx) => {
        ctx.holdCancelAnswer?.();
        held = true;
        await release.promise;
        ctx.signal.throwIfAborted();
        return replaceResult;
      },
    });
    p.session.onFrame(replace('w1'));
    await until('the handler to hold its cancel answer', () => held);
    p.cancel('w1');
    p.cancel('w1'); // while the handler still runs
    expect(p.sent).toEqual([]);
    release.resolve();
    const answerMs = await firstAnswer(p);
    p.cancel('w1'); // after the answer
    await noSecondAnswer(p, answerMs);
    expect(p.sent).toEqual([cancelled(REPLACE, 'w1')]);
  });

  it('a held handler that throws a ProtocolError after the cancel is answered with that error', async () => {
    const release = deferred();
    let held = false;
    const p = peer({
      editReplace: async (_params, ctx) => {
        ctx.holdCancelAnswer?.();
        held = true;
        await release.promise;
        throw new ProtocolError('HANDLER_ERROR', 'could not undo');
      },
    });
    p.session.onFrame(replace('w1'));
    await until('the handler to hold its cancel answer', () => held);
    p.cancel('w1');
    release.resolve();
    const answerMs = await firstAnswer(p);
    await noSecondAnswer(p, answerMs);
    expect(p.sent).toEqual([
      { topic: REPLACE, requestId: 'w1', error: { code: 'HANDLER_ERROR', message: 'could not undo' } },
    ]);
  });
});

// The real edit/replace handler (server-core) over a fake host: its isDirty is asked right before each
// file is replaced (the transaction's precondition), its afterWrite after the commit.
describe('edit/replace through the server core', () => {
  /** True while `path` is the second file and the first is already replaced: the precondition of b. */
  const atSecondFile = (path: string) => path === files[1] && disk()[0] === AFTER[0];

  it('cancelled mid-write (before the second file): CANCELLED once every file is restored', async () => {
    let p!: Peer;
    const isDirty = host.documents.isDirty.bind(host.documents);
    host.documents.isDirty = (path) => {
      if (atSecondFile(path)) p.cancel('w1');
      return isDirty(path);
    };
    p = peer(createCoreHandlers(host));
    p.session.onFrame(replace('w1'));
    const answerMs = await firstAnswer(p);
    expect(p.sent).toEqual([cancelled(REPLACE, 'w1')]);
    expect(p.diskAtSend).toEqual([BEFORE]);
    await noSecondAnswer(p, answerMs);
    expect(p.sent).toHaveLength(1);
    expect(leftBehind(p.session)).toEqual({ byId: 0, running: 0, pending: 0 });
  });

  it('cancelled past the commit point (while editors catch up): the result, every file changed', async () => {
    let p!: Peer;
    host.documents.afterWrite = async () => p.cancel('w1');
    p = peer(createCoreHandlers(host));
    p.session.onFrame(replace('w1'));
    const answerMs = await firstAnswer(p);
    await noSecondAnswer(p, answerMs);
    expect(p.sent).toEqual([
      {
        topic: REPLACE,
        requestId: 'w1',
        result: {
          replacedCount: 3,
          affectedFiles: files,
          transactionId: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/),
        },
      },
    ]);
    expect(p.diskAtSend).toEqual([AFTER]);
  });

  it('cancelled while planning (reading the editor state): CANCELLED at once, nothing written', async () => {
    let p!: Peer;
    const dirty = host.documents.dirty.bind(host.documents);
    host.documents.dirty = () => {
      p.cancel('w1');
      return dirty();
    };
    p = peer(createCoreHandlers(host));
    p.session.onFrame(replace('w1'));
    expect(p.sent).toEqual([cancelled(REPLACE, 'w1')]);
    const { ms: answerMs } = await timed(() =>
      until('the handler', () => p.session.pendingRequests === 0, { intervalMs: 2, maxIntervalMs: 2 }),
    );
    await noSecondAnswer(p, answerMs);
    expect(p.sent).toHaveLength(1);
    expect(disk()).toEqual(BEFORE);
  });

  it('a cancel whose rollback fails is answered with the error, not CANCELLED', async () => {
    let p!: Peer;
    const isDirty = host.documents.isDirty.bind(host.documents);
    host.documents.isDirty = (path) => {
      if (atSecondFile(path)) {
        // The first file can no longer be put back: something made it a folder meanwhile.
        rmSync(files[0]!);
        mkdirSync(files[0]!);
        p.cancel('w1');
      }
      return isDirty(path);
    };
    p = peer(createCoreHandlers(host));
    p.session.onFrame(replace('w1'));
    const answerMs = await firstAnswer(p);
    await noSecondAnswer(p, answerMs);
    expect(p.sent).toHaveLength(1);
    expect(p.sent[0]).toMatchObject({ topic: REPLACE, requestId: 'w1', error: { code: 'HANDLER_ERROR' } });
    expect((p.sent[0]!.error as { message: string }).message).toMatch(/a\.txt could not be restored/);
  });
});
