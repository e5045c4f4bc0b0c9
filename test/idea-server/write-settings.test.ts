// --write-settings: idea-server can be found the way existing IDEA clients find a server, through the
// workspace's .vscode/settings.json (the port and token keys), and never writes there unasked.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../../generated/current';
import { type ServedWorkspace, serveWorkspace } from '../../idea-server/src/serve';
import { parseDiscoveryKeys, serverUrl, workspaceSettingsFile } from '../../runtime/discovery';

const dirs: string[] = [];
const served: ServedWorkspace[] = [];
afterEach(async () => {
  await Promise.all(served.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function workspace(): { ws: string; home: string } {
  const root = mkdtempSync(join(tmpdir(), 'idea-server-settings-'));
  dirs.push(root);
  const ws = join(root, 'ws');
  mkdirSync(join(ws, '.vscode'), { recursive: true });
  // A user's own settings, with a comment: both must survive.
  writeFileSync(join(ws, '.vscode', 'settings.json'), '{\n  // mine\n  "editor.tabSize": 2\n}\n');
  execFileSync('git', ['init', '-q', ws]);
  return { ws, home: join(root, 'home') };
}

async function serve(ws: string, home: string, writeSettings: boolean): Promise<ServedWorkspace> {
  const s = await serveWorkspace({
    workspace: ws,
    port: 0,
    registry: false,
    writeSettings,
    historyDir: join(home, 'history'),
    home,
    env: { PATH: process.env.PATH, HOME: home },
    log: () => {},
  });
  served.push(s);
  return s;
}

// clause H14: idea-server writes the settings file 0600, kept out of git.
describe('idea-server --write-settings', () => {
  it('writes the port and token where existing clients look, 0600, kept out of git; a client connects', async () => {
    const { ws, home } = workspace();
    const s = await serve(ws, home, true);
    const file = workspaceSettingsFile(ws);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('// mine');
    expect(text).toContain('"editor.tabSize": 2');
    const keys = parseDiscoveryKeys(text);
    expect(keys).toEqual({ port: s.port, token: s.token });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await expect
      .poll(() => readFileSync(join(ws, '.git', 'info', 'exclude'), 'utf8'), { timeout: 10_000 })
      .toContain('.vscode/settings.json');
    const client = await connect({ url: serverUrl(keys.port!), token: keys.token! });
    try {
      expect(client.handshake.workspaces).toEqual([s.workspace]);
    } finally {
      await client.close();
    }
  });

  it('leaves the workspace untouched without the flag', async () => {
    const { ws, home } = workspace();
    const before = readFileSync(workspaceSettingsFile(ws), 'utf8');
    await serve(ws, home, false);
    expect(readFileSync(workspaceSettingsFile(ws), 'utf8')).toBe(before);
    expect(
      existsSync(join(ws, '.git', 'info', 'exclude')) ? readFileSync(join(ws, '.git', 'info', 'exclude'), 'utf8') : '',
    ).not.toContain('settings.json');
  });
});
