// diagnostics/changed coverage on idea-server (clauses T35, T36), in-process with the real
// typescript-language-server: a file no request ever opened, broken by edit/replace, has its new
// diagnostics pushed within 10 s with no further request (the language server's start included), and
// the fix their removal; a file that leaves coverage (50 more recent files named) is closed in its
// language server, which clears its diagnostics, and that is not reported; covered again with the same
// diagnostics, it is not reported either (the subscriber's view still holds them).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type IdeaClient } from '../../generated/current';
import { type ServedWorkspace, serveWorkspace } from '../../idea-server/src/serve';
import { poll } from '../../runtime/poll';
import { COVER_FILES } from '../../server-core/events/coverage';
import { silence } from '../support/wait';

const DIAG = '/app/vscode/diagnostics/changed';
/** Clause T36: an event comes at most this long after the change. */
const EVENT_MS = 10_000;

interface Delta {
  filePath: string;
  added: { message: string; code: string | null }[];
  removed: { message: string; code: string | null }[];
  total: number;
}

let tmp: string;
let ws: string;
let served: ServedWorkspace;
let client: IdeaClient;
const events: { at: number; delta: Delta }[] = [];

beforeAll(async () => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'idea-server-coverage-')));
  ws = join(tmp, 'ws');
  mkdirSync(join(ws, 'src', 'many'), { recursive: true });
  writeFileSync(join(ws, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }));
  writeFileSync(join(ws, 'src', 'untouched.ts'), "export const label: string = 'b';\n");
  for (let i = 0; i < COVER_FILES; i++)
    writeFileSync(join(ws, 'src', 'many', `m${i}.ts`), `export const m${i} = ${i};\n`);
  served = await serveWorkspace({
    workspace: ws,
    port: 0,
    registry: false,
    home: join(tmp, 'home'),
    historyDir: join(tmp, 'history'),
    log: () => {},
  });
  client = await connect({ url: served.url, token: served.token });
  client.onEvent(DIAG, (data) => {
    for (const delta of (data as { files: Delta[] }).files) events.push({ at: Date.now(), delta });
  });
}, 60_000);

afterAll(async () => {
  await client?.close();
  await served?.close();
  rmSync(tmp, { recursive: true, force: true });
}, 60_000);

const of = (file: string, since: number) => events.filter((e) => e.delta.filePath === file && e.at >= since);

describe('diagnostics/changed coverage (idea-server)', () => {
  const file = () => join(ws, 'src', 'untouched.ts');

  // clause T36: a write breaking a file nothing opened is followed by its diagnostics, no request needed.
  it('a write breaking a file nothing opened pushes its diagnostics within 10 s; the fix, their removal', async () => {
    expect(await client.eventsSubscribe({ events: [DIAG] })).toEqual({ subscribed: [DIAG] });
    // No request named the file and no language server runs yet: the write alone must bring the event.
    const broken = await client.editReplace({
      pattern: "string = 'b'",
      replacement: 'string = 2',
      include: 'src/*.ts',
    });
    const answeredAt = Date.now();
    expect(broken.affectedFiles).toEqual([file()]);
    const added = await poll(() => of(file(), 0).find((e) => e.delta.added.length > 0), { timeoutMs: EVENT_MS });
    expect(added, 'an event adding the type error within 10 s').toBeDefined();
    expect(added!.delta).toMatchObject({ removed: [], total: 1, added: [{ code: '2322' }] });
    const fixed = await client.editReplace({ pattern: 'string = 2', replacement: "string = 'b'", include: 'src/*.ts' });
    const fixedAt = Date.now();
    expect(fixed.replacedCount).toBe(1);
    const removed = await poll(() => of(file(), fixedAt).find((e) => e.delta.removed.length > 0), {
      timeoutMs: EVENT_MS,
    });
    expect(removed, 'an event removing it within 10 s').toBeDefined();
    expect(removed!.delta).toMatchObject({ added: [], removed: [{ code: '2322' }], total: 0 });
    console.log(
      `idea-server: replace answer → added event ${added!.at - answeredAt} ms (language server start included); ` +
        `fix → removed event ${removed!.at - fixedAt} ms`,
    );
  }, 60_000);

  // clause T35: a file leaving coverage is not reported.
  it('a file leaving coverage is not reported; covered again unchanged, it is not reported either', async () => {
    // The latency of this file's diagnostics event while subscribed (the language server running): what
    // the windows below, in which no such event may come, are sized from.
    const brokenAt = Date.now();
    await client.editReplace({ pattern: "string = 'b'", replacement: 'string = 3', include: 'src/*.ts' });
    expect(await poll(() => of(file(), 0).at(-1)?.delta.total === 1 || undefined, { timeoutMs: EVENT_MS })).toBe(true);
    const eventMs = of(file(), brokenAt).at(-1)!.at - brokenAt;
    const window = { factor: 3, floorMs: 500 };
    const inView = () => client.diagList({}).then((r) => r.diagnostics.some((d) => d.filePath === file()));
    expect(await inView()).toBe(true);
    // 50 more recent files named: the broken one leaves coverage and is closed in the language server,
    // which then clears its diagnostics (diag/list without filePath no longer has them).
    const leftAt = Date.now();
    await client.diagList({
      filePath: Array.from({ length: COVER_FILES }, (_, i) => join(ws, 'src', 'many', `m${i}.ts`)),
    });
    expect(
      await poll(async () => !(await inView()) || undefined, { timeoutMs: EVENT_MS }),
      'the server cleared it',
    ).toBe(true);
    await silence(eventMs, window);
    expect(
      of(file(), leftAt).map((e) => e.delta),
      'no event for leaving coverage',
    ).toEqual([]);
    // Named again: the language server reports the same error, which the subscriber's view still holds.
    const back = await client.diagList({ filePath: file() });
    expect(back.totalCount).toBe(1);
    await silence(eventMs, window);
    expect(
      of(file(), leftAt).map((e) => e.delta),
      'no event: nothing changed for the subscriber',
    ).toEqual([]);
    console.log(
      `idea-server: diagnostics event ${eventMs} ms after the write; each window of silence ${Math.max(window.floorMs, window.factor * eventMs)} ms`,
    );
  }, 60_000);
});
