// idea-server's files/changed (file-watcher.ts) and its event wiring (events.ts) on real folders:
// creations, changes (an atomic save too) and deletions seen; excluded and protected folders never
// entered, and nothing under them (or otherwise unreportable) ever emitted; the watch bounded; the
// watcher running only while some connection subscribes, and stopped cleanly; a subscribe answered only
// once the watcher watches every folder (clause T39: a file written the moment the answer is sent is
// reported "created"), bounded. Diagnostics published by a language server become per-file deltas
// (the real server: events.test.ts).
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServerSession } from '../../generated/v0.1.7/server';
import { ServerEvents } from '../../idea-server/src/events';
import { BATCH_MS, fsFileWatcher, type WatchStop } from '../../idea-server/src/file-watcher';
import { workspaceFolders } from '../../idea-server/src/host';
import type { DiagnosticsListener } from '../../idea-server/src/lsp/client';
import { poll } from '../../runtime/poll';
import { WINDOW_MS } from '../../server-core/events/change-window';
import { EventScope } from '../../server-core/events/scope';
import { DIAGNOSTICS_CHANGED, FILES_CHANGED } from '../../server-core/events/sources';
import type { FileChange, FileWatcher } from '../../server-core/host';
import { silence, tick, timed, until } from '../support/wait';

let tmp: string;
let ws: string;
let scope: EventScope;
const stops: (() => void)[] = [];

beforeEach(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'idea-server-watch-')));
  ws = join(tmp, 'ws');
  for (const d of ['src/deep', 'node_modules/pkg', '.git/objects', '.vscode', 'gen'])
    mkdirSync(join(ws, d), { recursive: true });
  writeFileSync(join(ws, 'src', 'a.ts'), 'a\n');
  writeFileSync(
    join(ws, '.vscode', 'settings.json'),
    JSON.stringify({ 'files.exclude': { '**/gen': true, '**/*.log': true } }),
  );
  scope = new EventScope(workspaceFolders(ws));
});

afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  rmSync(tmp, { recursive: true, force: true });
});

function watcherOn(maxFolders?: number, log?: (m: string) => void) {
  return fsFileWatcher({ folders: () => [ws], skipFolder: (p) => !scope.reportable(p), maxFolders, log });
}

/** Starts a watch collecting what it reports. */
function collect(watcher = watcherOn()) {
  const seen: FileChange[] = [];
  const stop = watcher.watch((changes) => seen.push(...changes));
  stops.push(stop);
  return { seen, stop, watcher };
}

const waitFor = async (what: () => boolean) =>
  expect(await poll(() => what() || undefined, { timeoutMs: 10_000 })).toBe(true);

describe('fsFileWatcher', () => {
  it('sees files created, changed and deleted, an atomic save as a change, a new folder with what it holds', async () => {
    const { seen } = collect();
    const a = join(ws, 'src', 'a.ts');
    const b = join(ws, 'src', 'deep', 'b.ts');
    writeFileSync(b, 'b\n');
    await waitFor(() => seen.some((c) => c.path === b && c.kind === 'created'));
    writeFileSync(a, 'a2\n');
    await waitFor(() => seen.some((c) => c.path === a && c.kind === 'changed'));
    seen.length = 0;
    // What server-core's write path does: a temporary file renamed over the target.
    const tmpFile = join(ws, 'src', '.a.ts.idea-tmp');
    writeFileSync(tmpFile, 'a3\n');
    renameSync(tmpFile, a);
    unlinkSync(b);
    await waitFor(() => seen.some((c) => c.path === b && c.kind === 'deleted'));
    expect(seen.filter((c) => c.path === a).map((c) => c.kind)).toEqual(['changed']);
    expect(seen.some((c) => c.path === tmpFile && c.kind !== 'created')).toBe(false);
    // A folder created with its contents: both reported, and the folder is watched from then on.
    mkdirSync(join(ws, 'src', 'new', 'inner'), { recursive: true });
    writeFileSync(join(ws, 'src', 'new', 'inner', 'n.ts'), '');
    await waitFor(() => seen.some((c) => c.path === join(ws, 'src', 'new', 'inner', 'n.ts')));
    writeFileSync(join(ws, 'src', 'new', 'inner', 'later.ts'), '');
    await waitFor(() => seen.some((c) => c.path === join(ws, 'src', 'new', 'inner', 'later.ts')));
    expect(seen).toContainEqual({ path: join(ws, 'src', 'new'), kind: 'created' });
  });

  it('never enters excluded or protected folders (node_modules, .git, .vscode, gen)', async () => {
    const { watcher } = collect();
    await waitFor(() => watcher.watching() === 3); // ws, src, src/deep
  });

  it('watches at most maxFolders folders, breadth first, and says so once', async () => {
    for (let i = 0; i < 20; i++) mkdirSync(join(ws, 'src', `d${i}`, 'x'), { recursive: true });
    const logs: string[] = [];
    const { watcher, stop } = collect(watcherOn(5, (m) => logs.push(m)));
    await stop.ready; // the walk is over: nothing more will be added
    expect(watcher.watching()).toBe(5);
    expect(logs.filter((l) => /watching 5 folders/.test(l))).toHaveLength(1);
  });

  it('ready settles once every folder is watched', async () => {
    for (let i = 0; i < 30; i++) mkdirSync(join(ws, 'src', `d${i}`, 'x'), { recursive: true });
    const watcher = watcherOn();
    const stop = watcher.watch(() => {});
    stops.push(stop);
    await stop.ready;
    expect(watcher.watching()).toBe(63); // ws, src, src/deep, 30 × (d, d/x)
  });

  it('stop closes every watch: nothing is reported after it', async () => {
    const { seen, stop, watcher } = collect();
    await waitFor(() => watcher.watching() === 3);
    // How long a write takes to be reported here while watching: the window for one after the stop.
    const { ms } = await timed(async () => {
      writeFileSync(join(ws, 'src', 'before.ts'), '');
      await until('the write before the stop reported', () => seen.length > 0);
    });
    stop();
    seen.length = 0;
    expect(watcher.watching()).toBe(0);
    writeFileSync(join(ws, 'src', 'after.ts'), '');
    await silence(ms, { factor: 4, floorMs: 5 * BATCH_MS });
    expect(seen).toEqual([]);
  });
});

/** A connection as events.ts sees it: its subscriptions, changed between frames. */
function fakeSession() {
  const s = {
    subscriptions: [] as string[],
    onFrame() {},
    onClose() {
      s.subscriptions = [];
    },
    state: 'open' as const,
  };
  return s;
}

function serverEvents(watcher: FileWatcher = watcherOn(), more: { watchReadyMs?: number; log?(m: string): void } = {}) {
  let publish: DiagnosticsListener = () => {};
  const resynced: string[][] = [];
  const events = new ServerEvents({
    scope,
    watcher,
    client: {
      onDiagnostics: (l) => {
        publish = l;
        return () => {};
      },
      changedOnDisk: (paths) => resynced.push([...paths]),
    },
    log: more.log ?? (() => {}),
    watchReadyMs: more.watchReadyMs,
  });
  stops.push(() => events.dispose());
  const emitted: { event: string; data: Record<string, unknown> }[] = [];
  events.attach((event, data) => emitted.push({ event, data }));
  return { events, emitted, resynced, publish: (p: string, d: unknown[]) => publish(p, d as never) };
}

describe('ServerEvents', () => {
  it('advertises files/changed and diagnostics/changed, not editor/changed', () => {
    expect([...serverEvents().events.session.events].sort()).toEqual([DIAGNOSTICS_CHANGED, FILES_CHANGED].sort());
  });

  it('emits only reportable files: nothing excluded, protected or under a skipped folder', async () => {
    const watcher = watcherOn();
    const { events, emitted } = serverEvents(watcher);
    const session = fakeSession();
    const tracked = events.track(session);
    session.subscriptions = [FILES_CHANGED];
    tracked.onFrame('subscribe');
    await waitFor(() => watcher.watching() === 3);
    for (const f of [
      'node_modules/pkg/index.js',
      '.git/objects/x',
      '.git/HEAD',
      '.vscode/settings.json',
      'gen/a.ts',
      'src/app.log',
      'w.code-workspace',
    ])
      writeFileSync(join(ws, f), 'x');
    writeFileSync(join(ws, 'src', 'ok.ts'), 'x');
    await waitFor(() => emitted.length > 0);
    // A file written after all of them, reported: what the watcher had of the others came before it.
    writeFileSync(join(ws, 'src', 'last.ts'), 'x');
    const paths = () => emitted.flatMap((e) => (e.data.changes as { filePath: string }[]).map((c) => c.filePath));
    await until('the last file reported', () => paths().includes(join(ws, 'src', 'last.ts')), { detail: paths });
    expect(paths()).toEqual([join(ws, 'src', 'ok.ts'), join(ws, 'src', 'last.ts')]);
    expect(emitted.map((e) => e.event)).toEqual(emitted.map(() => FILES_CHANGED));
  });

  it('watches only while some connection subscribes to files/changed or diagnostics/changed', async () => {
    const watcher = watcherOn();
    const { events, emitted, resynced } = serverEvents(watcher);
    const one = fakeSession();
    const two = fakeSession();
    const [t1, t2] = [events.track(one), events.track(two)];
    t1.onFrame('handshake');
    expect(events.watching).toBe(false);
    one.subscriptions = [DIAGNOSTICS_CHANGED];
    t1.onFrame('subscribe');
    two.subscriptions = [FILES_CHANGED];
    t2.onFrame('subscribe');
    expect(events.watching).toBe(true);
    await waitFor(() => watcher.watching() === 3);
    const { ms } = await timed(async () => {
      writeFileSync(join(ws, 'src', 'a.ts'), 'changed\n');
      await waitFor(() => emitted.length > 0);
    });
    // A change reaches the language servers too (an open document is re-synced, its diagnostics follow).
    expect(resynced.flat()).toContain(join(ws, 'src', 'a.ts'));
    one.subscriptions = [];
    t1.onFrame('unsubscribe');
    expect(events.watching).toBe(true); // the other still listens
    t2.onClose(); // closing a connection ends its subscriptions
    expect(events.watching).toBe(false);
    expect(watcher.watching()).toBe(0);
    emitted.length = 0;
    writeFileSync(join(ws, 'src', 'a.ts'), 'unwatched\n');
    await silence(ms, { factor: 4, floorMs: WINDOW_MS }); // watched, a change was emitted within `ms`
    expect(emitted).toEqual([]);
  });

  it('turns published diagnostics into per-file deltas, for reportable files only', () => {
    const { emitted, publish } = serverEvents();
    const err = {
      range: { start: { line: 1, character: 2 }, end: { line: 1, character: 5 } },
      severity: 1,
      message: 'nope',
      source: 'ts',
      code: 2322,
    };
    const a = join(ws, 'src', 'a.ts');
    publish(a, [err]);
    publish(a, [err]); // the same again: no change, no event
    publish(join(ws, 'node_modules', 'pkg', 'x.ts'), [err]);
    publish(a, []);
    expect(emitted.map((e) => e.data)).toEqual([
      {
        files: [
          {
            filePath: a,
            added: [
              {
                line: 1,
                character: 2,
                endLine: 1,
                endCharacter: 5,
                severity: 'error',
                message: 'nope',
                source: 'ts',
                code: '2322',
              },
            ],
            removed: [],
            total: 1,
          },
        ],
      },
      { files: [{ filePath: a, added: [], removed: [expect.objectContaining({ message: 'nope' })], total: 0 }] },
    ]);
  });
});

const SUB = '/app/vscode/events/subscribe';
const UNSUB = '/app/vscode/events/unsubscribe';
const req = (topic: string, requestId: string, params: unknown = {}) => JSON.stringify({ topic, requestId, params });
type Frame = {
  requestId?: string;
  result?: unknown;
  event?: string;
  data?: { changes: { filePath: string; change: string }[] };
};

/**
 * A real 0.1.7 session of a connection, wired as serve.ts wires it (the events' session settings,
 * tracked, fed its events); `onSend` sees each frame the moment the session sends it.
 */
function connection(events: ServerEvents, onSend: (frame: Frame) => void = () => {}) {
  const frames: Frame[] = [];
  const session = new ServerSession({
    handlers: {},
    auth: { required: false },
    workspaces: () => [ws],
    send: (f) => {
      const frame = JSON.parse(f) as Frame;
      frames.push(frame);
      onSend(frame);
    },
    close: () => {},
    ...events.session,
  });
  const tracked = events.track(session);
  tracked.onFrame(JSON.stringify({ type: 'handshake' }));
  frames.length = 0;
  return { tracked, session, frames };
}

/** The real watcher, its setup `ms` late (a slow disk, a large tree): its ready settles that much later. */
function slowed(inner: ReturnType<typeof watcherOn>, ms: number): FileWatcher {
  return {
    watch(listener): WatchStop {
      let stop: WatchStop | undefined;
      let settle!: () => void;
      const ready = new Promise<void>((r) => {
        settle = r;
      });
      const timer = setTimeout(() => {
        stop = inner.watch(listener);
        void stop.ready.then(settle);
      }, ms);
      return Object.assign(
        () => {
          clearTimeout(timer);
          stop?.();
          settle();
        },
        { ready },
      );
    },
  };
}

// clause T39: "subscribed" means changes from now on are reported. The file is written in the session's
// send of the answer, the earliest a client could: an answer sent before the watches are in place
// misses it (not reported at all: it is in the folder's first listing) or calls it "changed".
describe('a subscribe is answered once the watcher watches', () => {
  async function freshFilesAfterTheAnswer(watcher: FileWatcher) {
    const { events } = serverEvents(watcher);
    let writeOnAnswer: { id: string; file: string } | undefined;
    const { tracked, frames, session } = connection(events, (frame) => {
      if (writeOnAnswer && frame.requestId === writeOnAnswer.id) writeFileSync(writeOnAnswer.file, 'new\n');
    });
    events.attach((event, data) => session.emit(event, data));
    const created = (file: string) =>
      frames.some(
        (f) => f.event === FILES_CHANGED && f.data!.changes.some((c) => c.filePath === file && c.change === 'created'),
      );
    for (let i = 0; i < 20; i++) {
      // Each round starts the watcher afresh (the unsubscribe below stops it): each is a new race.
      const file = join(ws, 'src', i % 2 ? 'deep' : '', `fresh-${i}.ts`);
      writeOnAnswer = { id: `s${i}`, file };
      tracked.onFrame(req(SUB, `s${i}`, { events: [FILES_CHANGED] }));
      const seen = await poll(() => created(file) || undefined, { timeoutMs: 5000, intervalMs: 10, backoff: 1 });
      expect(seen, `${file} reported created within 5 s of being written`).toBe(true);
      tracked.onFrame(req(UNSUB, `u${i}`, {}));
      expect(events.watching).toBe(false);
    }
  }

  it('20 files written the moment the answer is sent are each reported created', async () => {
    await freshFilesAfterTheAnswer(watcherOn());
  });

  it('the same with a watcher whose setup takes 50 ms (the answer waits for it)', async () => {
    await freshFilesAfterTheAnswer(slowed(watcherOn(), 50));
  });

  it('a second subscriber, the watcher in place, is answered at once; an unsubscribe during the wait wins', async () => {
    const { events } = serverEvents(slowed(watcherOn(), 200));
    const one = connection(events);
    const two = connection(events);
    one.tracked.onFrame(req(SUB, 's1', { events: [FILES_CHANGED] }));
    expect(events.watching).toBe(true);
    await poll(() => one.frames.length > 0 || undefined, { timeoutMs: 5000, intervalMs: 10, backoff: 1 });
    two.tracked.onFrame(req(SUB, 's2', { events: [DIAGNOSTICS_CHANGED] }));
    expect(two.frames).toEqual([{ topic: SUB, requestId: 's2', result: { subscribed: [DIAGNOSTICS_CHANGED] } }]);
    // Both gone, then one subscribes and unsubscribes before the watcher is in place.
    one.tracked.onClose();
    two.tracked.onClose();
    expect(events.watching).toBe(false);
    const three = connection(events);
    three.tracked.onFrame(req(SUB, 's3', { events: [FILES_CHANGED] }));
    three.tracked.onFrame(req(UNSUB, 'u3', {}));
    expect(events.watching).toBe(false);
    await tick(); // the stop settled the wait, and the answers followed in the same turn: no 200 ms
    expect(three.frames).toEqual([
      { topic: UNSUB, requestId: 'u3', result: { subscribed: [] } },
      { topic: SUB, requestId: 's3', result: { subscribed: [] } },
    ]);
  });

  it('a watcher that never gets in place delays the answer by the bound only, and the log says so', async () => {
    const logs: string[] = [];
    const never: FileWatcher = { watch: () => Object.assign(() => {}, { ready: new Promise<void>(() => {}) }) };
    const { events } = serverEvents(never, { watchReadyMs: 100, log: (m) => logs.push(m) });
    const c = connection(events);
    const started = performance.now();
    c.tracked.onFrame(req(SUB, 's1', { events: [FILES_CHANGED] }));
    await poll(() => c.frames.length > 0 || undefined, { timeoutMs: 5000, intervalMs: 10, backoff: 1 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
    expect(c.frames).toEqual([{ topic: SUB, requestId: 's1', result: { subscribed: [FILES_CHANGED] } }]);
    expect(logs.filter((l) => /not in place after 100 ms/.test(l))).toHaveLength(1);
  });

  it('10,000 subscribes while the watcher is not in place share one wait: one timer, one line of log', async () => {
    const logs: string[] = [];
    const never: FileWatcher = { watch: () => Object.assign(() => {}, { ready: new Promise<void>(() => {}) }) };
    const { events } = serverEvents(never, { watchReadyMs: 100, log: (m) => logs.push(m) });
    const c = connection(events);
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      for (let i = 0; i < 10_000; i++) c.tracked.onFrame(req(SUB, `s${i}`, { events: [FILES_CHANGED] }));
      expect(timers.mock.calls.filter(([, ms]) => ms === 100)).toHaveLength(1);
    } finally {
      timers.mockRestore();
    }
    await poll(() => c.frames.length === 10_000 || undefined, { timeoutMs: 10_000, intervalMs: 10, backoff: 1 });
    expect(logs.filter((l) => /not in place after 100 ms/.test(l))).toHaveLength(1);
  });
});
