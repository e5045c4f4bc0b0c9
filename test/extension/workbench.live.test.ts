// What only the workbench shows: find/replace over UNSAVED editor text typed by a user, the status bar
// item, and the Stop/Start/Copy Connection Info commands run from the command palette. One real VS Code
// for the whole file, driven through its page (livehost's WorkbenchDriver); waits are on conditions.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_VERSION } from '../../generated/current';
import { connect, type IdeaClient } from '../../generated/v0.1.6/client';
import { isPortOpen, parseJsonc } from '../../livehost';
import { listRegisteredServers } from '../../runtime/registry';
import { until } from '../support/wait';
import { errorCode, type LiveFixture, startLiveFixture } from './helpers';

let fx: LiveFixture;
beforeAll(async () => {
  // VS Code for the web (code-server) defaults files.autoSave to "afterDelay": typed text would reach the
  // disk within a second and the unsaved-contents tests would prove nothing. A desktop user's default is off.
  fx = await startLiveFixture({ userSettings: { 'files.autoSave': 'off' } });
});
afterAll(async () => {
  await fx?.close();
});

/** The workbench throws while a page or editor is still coming up: waits through that, for 20 s. */
const untilShown = <T>(what: string, f: () => Promise<T | undefined> | T | undefined) =>
  until(what, f, { timeoutMs: 20_000, maxIntervalMs: 250, retryErrors: true });

const diskText = (rel: string) => readFileSync(join(fx.ws.dir, rel), 'utf8');
const settings = () =>
  parseJsonc(readFileSync(join(fx.ws.dir, '.vscode/settings.json'), 'utf8')) as Record<string, unknown>;

describe('unsaved editor contents', () => {
  const FILE = 'text/search.txt';
  const typed = 'zebracrossing unsaved';

  it('edit/find sees text typed into an editor and not saved; the disk copy does not have it', async () => {
    const before = diskText(FILE);
    expect(before).not.toContain('zebracrossing');
    await fx.host.workbench.openFile(FILE);
    await fx.host.workbench.typeAtEnd(`\n${typed}`);
    await untilShown('the tab to show unsaved changes', async () =>
      (await fx.host.workbench.activeTabDirty()) ? true : undefined,
    );

    const path = join(fx.ws.dir, FILE);
    // Ctrl+End lands on the document's last line (index = number of newlines); Enter opens the next one.
    const typedLine = before.split('\n').length;
    await untilShown('the editor to show the typed line', async () =>
      (await fx.host.workbench.visibleEditorText()).includes(typed) ? true : undefined,
    );
    // The extension host learns of the keystrokes asynchronously, one change event per key: a find run
    // meanwhile sees a prefix of the line. Poll until it sees the whole line.
    const found = await untilShown('find to see the whole typed line', async () => {
      const r = await fx.client.editFind({ pattern: 'zebracrossing' });
      return r.matches[0]?.lineText === typed ? r : undefined;
    });
    expect(found.totalCount).toBe(1);
    expect(found.matches[0]).toMatchObject({ filePath: path, line: typedLine, lineText: typed });
    expect(diskText(FILE)).toBe(before);
  });

  it('edit/replace refuses a file with unsaved changes: the editor keeps them, the disk is untouched', async () => {
    const before = diskText(FILE);
    const answer = await fx.client
      .editReplace({ pattern: 'zebracrossing', replacement: 'okapiwalk', include: 'text/**' })
      .then(
        () => 'replaced',
        (e: Error & { code?: string }) => `${e.code}: ${e.message}`,
      );
    expect(answer).toMatch(
      /^HANDLER_ERROR: .*search\.txt has unsaved changes in the editor; save or revert them first\. Nothing was changed\.$/,
    );
    expect(diskText(FILE)).toBe(before);
    expect(await fx.host.workbench.activeTabDirty()).toBe(true);
    expect(await fx.host.workbench.visibleEditorText()).toContain(typed);
  });

  it('once the user saves, edit/replace replaces on disk and the editor shows it', async () => {
    await fx.host.workbench.save();
    await untilShown('the tab to be clean', async () =>
      (await fx.host.workbench.activeTabDirty()) ? undefined : true,
    );
    const r = await fx.client.editReplace({ pattern: 'zebracrossing', replacement: 'okapiwalk', include: 'text/**' });
    expect(r).toEqual({ replacedCount: 1, affectedFiles: [join(fx.ws.dir, FILE)], transactionId: expect.any(String) });
    const disk = diskText(FILE);
    expect(disk).toContain('okapiwalk unsaved');
    expect(disk).not.toContain('zebracrossing');
    await untilShown('the editor to show the replacement', async () =>
      (await fx.host.workbench.visibleEditorText()).includes('okapiwalk unsaved') ? true : undefined,
    );
    expect(await fx.host.workbench.activeTabDirty()).toBe(false);
    expect((await fx.client.editFind({ pattern: 'zebracrossing' })).totalCount).toBe(0);
  });
});

// In order: the count starts at the fixture's one client; Start needs the server Stop stopped.
describe('status bar and commands', () => {
  const statusText = (n: number, port = fx.host.port) =>
    fx.host.workbench.statusBarText(new RegExp(`IDEA :${port} · ${n}$`));

  it('the status bar item shows the port and the number of connected clients', async () => {
    expect(await statusText(1)).toMatch(new RegExp(`IDEA :${fx.host.port} · 1`));
    const second = await connect({ url: fx.host.url, token: fx.host.token });
    try {
      expect(await statusText(2)).toMatch(/· 2$/);
    } finally {
      second.close();
    }
    expect(await statusText(1)).toMatch(/· 1$/);
  });

  it('IDEA: Copy Connection Info puts url and token on the clipboard', async () => {
    const wb = fx.host.workbench;
    await wb.grantClipboard();
    await wb.page.evaluate<void>("navigator.clipboard.writeText('before')");
    expect(await wb.readClipboard()).toBe('before');
    await wb.runCommand('IDEA: Copy Connection Info');
    const text = await untilShown('the clipboard to change', async () => {
      const t = await wb.readClipboard();
      return t !== 'before' ? t : undefined;
    });
    expect(JSON.parse(text)).toEqual({
      url: fx.host.url,
      port: fx.host.port,
      token: fx.host.token,
      authRequired: true,
    });
  });

  it('the running server is registered for its user: 0700 folder, 0600 entry, port, token and folder', async () => {
    const { servers, ignored } = await listRegisteredServers({ dir: fx.host.registryDir, clean: false });
    expect(ignored).toEqual([]);
    expect(servers).toHaveLength(1);
    expect(servers[0]).toMatchObject({
      port: fx.host.port,
      url: fx.host.url,
      token: fx.host.token,
      authRequired: true,
      protocolVersion: CURRENT_VERSION,
      workspaces: [...fx.client.handshake.workspaces],
    });
    expect(statSync(fx.host.registryDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(fx.host.registryDir, `${servers[0]!.pid}-${fx.host.port}.json`)).mode & 0o777).toBe(0o600);
  });

  it('IDEA: Stop Server closes live connections and the port stops answering', async () => {
    const client = await connect({ url: fx.host.url, token: fx.host.token });
    await fx.host.workbench.runCommand('IDEA: Stop Server');
    let closed = false;
    void client.closed.then(() => {
      closed = true;
    });
    await untilShown('the live connection to be closed by the server', () => (closed ? true : undefined));
    await untilShown('the port to close', async () => ((await isPortOpen(fx.host.port, 300)) ? undefined : true));
    expect(await fx.host.workbench.statusBarText(/IDEA off/)).toMatch(/IDEA off$/);
    expect(await errorCode(connect({ url: fx.host.url, token: fx.host.token, timeoutMs: 3000 }))).not.toBe('no error');
    expect(
      (await listRegisteredServers({ dir: fx.host.registryDir, clean: false, probePorts: false })).servers,
    ).toEqual([]);
  });

  it('IDEA: Start Server listens again, with a fresh token written for clients', async () => {
    const oldToken = fx.host.token;
    await fx.host.workbench.runCommand('IDEA: Start Server');
    const s = await untilShown('the ready signal to be rewritten', () => {
      const v = settings();
      return v['idea.server.authToken'] !== oldToken ? v : undefined;
    });
    const port = s['idea.server.port'] as number;
    const token = s['idea.server.authToken'] as string;
    expect(typeof token).toBe('string');
    const registered = await untilShown(
      'the registry entry',
      async () => (await listRegisteredServers({ dir: fx.host.registryDir })).servers[0],
    );
    expect(registered).toMatchObject({ port, token });
    let client: IdeaClient | undefined;
    try {
      client = await connect({ url: `ws://127.0.0.1:${port}`, token });
      expect((await client.fsFindFiles({ query: 'shapes' })).totalCount).toBe(1);
      expect(await statusText(1, port)).toMatch(/· 1$/);
      expect(await errorCode(connect({ url: `ws://127.0.0.1:${port}`, token: oldToken }))).toBe('UNAUTHORIZED');
    } finally {
      client?.close();
    }
  });
});
