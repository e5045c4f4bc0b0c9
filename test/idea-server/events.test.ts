// idea-server's events end to end, in-process (serveWorkspace) with the real typescript-language-server:
// the handshake advertises files/changed and diagnostics/changed (not editor/changed) and the subscribe
// topics; an edit/replace that introduces a type error in a file the language server has open is
// pushed as a diagnostics/changed delta adding exactly that error (and files/changed naming the file),
// and the fix as a delta removing it.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type IdeaClient } from '../../generated/current';
import { type ServedWorkspace, serveWorkspace } from '../../idea-server/src/serve';
import { poll } from '../../runtime/poll';

const SLOW = 180_000; // tsserver loads the project on the first request; the machine is shared
const DIAG = '/app/vscode/diagnostics/changed';
const FILES = '/app/vscode/files/changed';

interface Delta {
  filePath: string;
  added: { message: string; code: string | null; severity: string; line: number }[];
  removed: { message: string; code: string | null }[];
  total: number;
}

let tmp: string;
let ws: string;
let served: ServedWorkspace;
let client: IdeaClient;
const diagnostics: Delta[] = [];
const files: { filePath: string; change: string }[] = [];

beforeAll(async () => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'idea-server-events-')));
  ws = join(tmp, 'ws');
  mkdirSync(join(ws, 'src'), { recursive: true });
  writeFileSync(join(ws, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }));
  writeFileSync(join(ws, 'src', 'a.ts'), 'export const count: number = 1;\n');
  served = await serveWorkspace({
    workspace: ws,
    port: 0,
    registry: false,
    home: join(tmp, 'home'),
    historyDir: join(tmp, 'history'),
    log: () => {},
  });
  client = await connect({ url: served.url, token: served.token });
  client.onEvent(DIAG, (data) => diagnostics.push(...(data as { files: Delta[] }).files));
  client.onEvent(FILES, (data) => files.push(...(data as { changes: typeof files }).changes));
}, 60_000);

afterAll(async () => {
  await client?.close();
  await served?.close();
  rmSync(tmp, { recursive: true, force: true });
}, 60_000);

describe('idea-server events', () => {
  it('advertises the two events it pushes and the subscribe topics, not editor/changed', () => {
    expect([...(client.handshake as { events?: string[] }).events!].sort()).toEqual([DIAG, FILES]);
    expect(client.supports('/app/vscode/events/subscribe')).toBe(true);
    expect(client.supports('/app/vscode/events/unsubscribe')).toBe(true);
    expect(served.capabilities).toContain('/app/vscode/events/subscribe');
  });

  it('an edit/replace that introduces a type error is a diagnostics delta; the fix removes it', {
    timeout: SLOW,
  }, async () => {
    const a = join(ws, 'src', 'a.ts');
    expect(await client.eventsSubscribe({ events: [DIAG, FILES] })).toEqual({ subscribed: [DIAG, FILES] });
    // The language server reports on the files it has open: a request opens this one.
    expect((await client.diagList({ filePath: a })).totalCount).toBe(0);
    const broken = await client.editReplace({
      pattern: 'number = 1',
      replacement: "number = 'one'",
      include: 'src/**',
    });
    expect(broken.replacedCount).toBe(1);
    const added = await poll(
      () => diagnostics.find((d) => d.filePath === a && d.added.some((x) => x.code === '2322')),
      {
        timeoutMs: 120_000,
      },
    );
    expect(added).toMatchObject({
      filePath: a,
      added: [
        { code: '2322', severity: 'error', line: 0, message: "Type 'string' is not assignable to type 'number'." },
      ],
      removed: [],
      total: 1,
    });
    expect(files).toContainEqual({ filePath: a, change: 'changed' });
    diagnostics.length = 0;
    await client.editReplace({ pattern: "number = 'one'", replacement: 'number = 2', include: 'src/**' });
    const removed = await poll(() => diagnostics.find((d) => d.filePath === a && d.removed.length > 0), {
      timeoutMs: 120_000,
    });
    expect(removed).toMatchObject({ filePath: a, added: [], removed: [{ code: '2322' }], total: 0 });
    expect(await client.eventsUnsubscribe({})).toEqual({ subscribed: [] });
  });
});
