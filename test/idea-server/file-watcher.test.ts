// idea-server's files/changed (file-watcher.ts) and its event wiring (events.ts) on real folders:
// creations, changes (an atomic save too) and deletions seen; excluded and protected folders never
// entered, and nothing under them (or otherwise unreportable) ever emitted; the watch bounded; the
// watcher running only while some connection subscribes, and stopped cleanly. Diagnostics published
// by a language server become per-file deltas (the real server: events.test.ts).
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerEvents } from '../../idea-server/src/events';
import { fsFileWatcher } from '../../idea-server/src/file-watcher';
import { workspaceFolders } from '../../idea-server/src/host';
import type { DiagnosticsListener } from '../../idea-server/src/lsp/client';
import { poll } from '../../runtime/poll';
import { EventScope } from '../../server-core/events/scope';
import { DIAGNOSTICS_CHANGED, FILES_CHANGED } from '../../server-core/events/sources';
import type { FileChange } from '../../server-core/host';

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
    const { watcher } = collect(watcherOn(5, (m) => logs.push(m)));
    await waitFor(() => watcher.watching() === 5);
    await new Promise((r) => setTimeout(r, 50));
    expect(watcher.watching()).toBe(5);
    expect(logs.filter((l) => /watching 5 folders/.test(l))).toHaveLength(1);
  });

  it('stop closes every watch: nothing is reported after it', async () => {
    const { seen, stop, watcher } = collect();
    await waitFor(() => watcher.watching() === 3);
    stop();
    expect(watcher.watching()).toBe(0);
    writeFileSync(join(ws, 'src', 'after.ts'), '');
    await new Promise((r) => setTimeout(r, 200));
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

function serverEvents(watcher = watcherOn()) {
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
    log: () => {},
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
    await new Promise((r) => setTimeout(r, 150));
    const paths = emitted.flatMap((e) => (e.data.changes as { filePath: string }[]).map((c) => c.filePath));
    expect(paths).toEqual([join(ws, 'src', 'ok.ts')]);
    expect(emitted.map((e) => e.event)).toEqual([FILES_CHANGED]);
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
    writeFileSync(join(ws, 'src', 'a.ts'), 'changed\n');
    await waitFor(() => emitted.length > 0);
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
    await new Promise((r) => setTimeout(r, 200));
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
