// Which server serves a folder: the registry's deepest containing workspace folder (newest on a tie),
// then the settings keys in the folder or an ancestor, else an error that lists what was found.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  isWithin,
  locateServer,
  NoServerError,
  NotLoopbackError,
  pickServer,
  resolveEndpoint,
} from '../../runtime/locate';
import { type RegistryEntry, registerServer } from '../../runtime/registry';
import { loopbackListeners } from './listeners';

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'idea-locate-')));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const { listening } = loopbackListeners();
const entry = (port: number, workspaces: string[], startedAt = '2026-11-24T10:00:00Z'): RegistryEntry => ({
  registry: 1,
  pid: process.pid,
  port,
  url: `ws://127.0.0.1:${port}`,
  protocolVersion: '0.1.6',
  workspaces,
  authRequired: true,
  token: `tok-${port}`,
  startedAt,
});

describe('pickServer', () => {
  const id = (f: string) => f;
  it('takes the deepest workspace folder containing the path', () => {
    const servers = [entry(1, ['/repo']), entry(2, ['/repo/pkg', '/elsewhere']), entry(3, ['/repository'])];
    expect(pickServer('/repo/pkg/src', servers, id)?.entry.port).toBe(2);
    expect(pickServer('/repo/other', servers, id)?.entry.port).toBe(1);
    expect(pickServer('/repo', servers, id)?.entry.port).toBe(1);
    expect(pickServer('/repository/x', servers, id)?.entry.port).toBe(3); // a prefix is not a parent
    expect(pickServer('/nowhere', servers, id)).toBeUndefined();
  });

  it('prefers the most recently started of two windows on the same folder', () => {
    const servers = [
      entry(1, ['/repo'], '2026-11-24T10:00:00Z'),
      entry(2, ['/repo'], '2026-11-24T11:00:00Z'),
      entry(3, ['/repo'], '2026-11-24T09:00:00Z'),
    ];
    expect(pickServer('/repo/a', servers, id)?.entry.port).toBe(2);
  });

  it('isWithin is about path segments', () => {
    expect(isWithin('/a/b', '/a')).toBe(true);
    expect(isWithin('/a', '/a')).toBe(true);
    expect(isWithin('/ab', '/a')).toBe(false);
    expect(isWithin('/a/../b', '/a')).toBe(false);
  });
});

describe('locateServer', () => {
  it('two windows on nested folders: each directory finds its own; outside both, the settings keys; else a listing', async () => {
    const outer = join(tmp, 'mono');
    const inner = join(outer, 'packages', 'app');
    mkdirSync(join(inner, 'src'), { recursive: true });
    const registry = join(tmp, 'registry');
    const [p1, p2] = [await listening(), await listening()];
    registerServer(
      {
        pid: process.pid,
        port: p1,
        protocolVersion: '0.1.6',
        workspaces: [outer],
        token: 'secret-token-1',
        authRequired: true,
        ide: 'Code A',
      },
      registry,
    );
    registerServer(
      {
        pid: process.pid,
        port: p2,
        protocolVersion: '0.1.6',
        workspaces: [inner],
        token: 'secret-token-2',
        authRequired: true,
      },
      registry,
    );

    expect(await locateServer(join(inner, 'src'), { registry })).toMatchObject({
      source: 'registry',
      port: p2,
      token: 'secret-token-2',
      folder: inner,
    });
    expect(await locateServer(join(outer, 'packages'), { registry })).toMatchObject({
      source: 'registry',
      port: p1,
      token: 'secret-token-1',
      folder: outer,
    });

    const legacy = join(tmp, 'legacy');
    mkdirSync(join(legacy, '.vscode'), { recursive: true });
    mkdirSync(join(legacy, 'deep', 'er'), { recursive: true });
    writeFileSync(join(legacy, '.vscode', 'settings.json'), '{"idea.server.port": 7299, "idea.server.authToken": "s"}');
    expect(await locateServer(join(legacy, 'deep', 'er'), { registry })).toMatchObject({
      source: 'workspace settings',
      port: 7299,
      token: 's',
      folder: legacy,
    });

    const lost = join(tmp, 'lost');
    mkdirSync(lost);
    const err = await locateServer(lost, { registry }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NoServerError);
    const msg = (err as Error).message;
    expect(msg).toContain(`no IDEA server serves ${lost}`);
    expect(msg).toContain(`ws://127.0.0.1:${p1}  pid ${process.pid}, Code A: ${outer}`);
    expect(msg).toContain(`ws://127.0.0.1:${p2}`);
    expect(msg).not.toMatch(/secret-token/); // tokens are never printed
  });

  it('with nothing registered says so', async () => {
    const lost = join(tmp, 'alone');
    mkdirSync(lost);
    await expect(locateServer(lost, { registry: join(tmp, 'empty-registry') })).rejects.toThrow(
      /No running server is registered/,
    );
  });
});

describe('resolveEndpoint: one rule for every client, flag > environment > registry > settings', () => {
  it('picks the server and the token, each from the first source that has it', async () => {
    const ws = join(tmp, 'rule');
    mkdirSync(join(ws, '.vscode'), { recursive: true });
    const registry = join(tmp, 'rule-registry');
    const [reg, other] = [await listening(), await listening()];
    registerServer(
      {
        pid: process.pid,
        port: reg,
        protocolVersion: '0.1.6',
        workspaces: [ws],
        token: 'registry-tok',
        authRequired: true,
      },
      registry,
    );
    writeFileSync(
      join(ws, '.vscode', 'settings.json'),
      JSON.stringify({ 'idea.server.port': other, 'idea.server.authToken': 'settings-tok' }),
    );
    const r = (req: Parameters<typeof resolveEndpoint>[0]) =>
      resolveEndpoint({ cwd: ws, registry, ...req }).then(({ url, token, from }) => ({ url, token, from }));
    const U = (p: number) => `ws://127.0.0.1:${p}`;

    expect(await r({})).toEqual({ url: U(reg), token: 'registry-tok', from: { url: 'registry', token: 'registry' } });
    expect(await r({ env: { IDEA_TOKEN: 'env-tok' } })).toEqual({
      url: U(reg),
      token: 'env-tok',
      from: { url: 'registry', token: 'environment' },
    });
    expect(await r({ token: 'flag-tok', env: { IDEA_TOKEN: 'env-tok' } })).toEqual({
      url: U(reg),
      token: 'flag-tok',
      from: { url: 'registry', token: 'flag' },
    });
    expect(await r({ env: { IDEA_URL: U(other) } })).toEqual({
      url: U(other),
      token: 'settings-tok',
      from: { url: 'environment', token: 'workspace settings' },
    });
    expect(await r({ url: U(reg), env: { IDEA_URL: U(other) } })).toEqual({
      url: U(reg),
      token: 'registry-tok',
      from: { url: 'flag', token: 'registry' },
    });
    expect(await r({ url: `ws://localhost:${reg}`, env: { IDEA_TOKEN: 'env-tok' } })).toMatchObject({
      token: 'env-tok',
      from: { url: 'flag', token: 'environment' },
    });
    // Empty values are unset; with no registry entry, the settings file.
    expect(
      await r({ url: '', token: '', env: { IDEA_URL: '', IDEA_TOKEN: '' }, registry: join(tmp, 'rule-empty') }),
    ).toEqual({
      url: U(other),
      token: 'settings-tok',
      from: { url: 'workspace settings', token: 'workspace settings' },
    });
    // An explicit url nobody knows: no token rather than another server's.
    expect(await r({ url: 'ws://127.0.0.1:1' })).toEqual({ url: 'ws://127.0.0.1:1', from: { url: 'flag' } });
  });

  it('refuses a url that is not ws:// on loopback, from a flag or the environment, even with a token', async () => {
    for (const req of [
      { url: 'ws://example.com:7200' },
      { url: 'wss://127.0.0.1:7200' },
      { url: 'ws://127.0.0.1.evil.test:7200' },
      { url: 'ws://127.0.0.1:70000' },
      { env: { IDEA_URL: 'ws://10.0.0.1:7200' } },
      { url: 'ws://[::2]:7200', token: 't' },
    ]) {
      await expect(
        resolveEndpoint({ cwd: tmp, registry: join(tmp, 'none'), ...req }),
        JSON.stringify(req),
      ).rejects.toBeInstanceOf(NotLoopbackError);
    }
    await expect(resolveEndpoint({ env: { IDEA_URL: 'http://x' } })).rejects.toThrow(
      /^IDEA_URL must be a loopback WebSocket url/,
    );
  });

  it('is the only place idea, idea-mcp and idea-conformance read IDEA_URL and IDEA_TOKEN', () => {
    const src = (p: string) => readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8');
    // idea-conformance's run and fuzz find their server through conformance/lib/endpoint.ts.
    for (const file of ['cli/src/main.ts', 'mcp/src/connection.ts', 'conformance/lib/endpoint.ts'])
      expect(src(file), file).toMatch(/resolveEndpoint\(/);
    for (const file of ['conformance/cli.ts', 'conformance/fuzz/cli.ts'])
      expect(src(file), file).toMatch(/serverFor\(/);
    for (const file of [
      'cli/src/args.ts',
      'mcp/src/cli.ts',
      'mcp/src/connection.ts',
      'conformance/cli.ts',
      'conformance/fuzz/cli.ts',
      'conformance/lib/endpoint.ts',
    ])
      expect(src(file), file).not.toMatch(/env\.IDEA_TOKEN|env\[["']IDEA_TOKEN/);
  });
});
