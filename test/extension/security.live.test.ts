// Security rules against the live extension: loopback only, browser origins and foreign Host headers
// refused, token required, bounded frames, paths confined to the workspace (symlinks included), git
// refs never read as options, and bad input never kills the server.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connect } from '../../generated/v0.1.6/client';
import { freePort } from '../../livehost';
import { startWebSocketServer } from '../../runtime/ws-server';
import { errorCode, type LiveFixture, startLiveFixture } from './helpers';

let fx: LiveFixture;
let outside: string;
let blocker: Server;
let blockedPort: number;
const USER_TOKEN = 'user-pinned-token-7f3a';
beforeAll(async () => {
  // The configured port is taken: the extension must move on to the next one.
  blockedPort = await freePort();
  blocker = createServer();
  await new Promise<void>((r) => blocker.listen(blockedPort, '127.0.0.1', r));
  fx = await startLiveFixture({
    userSettings: { 'idea.server.port': blockedPort, 'idea.server.authToken': USER_TOKEN },
    // A repository trying to switch auth off and pin its own token through workspace settings.
    prepare: (dir) => {
      const file = join(dir, '.vscode/settings.json');
      const s = JSON.parse(readFileSync(file, 'utf8'));
      writeFileSync(
        file,
        JSON.stringify({ ...s, 'idea.server.authEnabled': false, 'idea.server.authToken': 'repo-pinned' }, null, 2),
      );
    },
  });
  outside = mkdtempSync(join(tmpdir(), 'idea-outside-'));
  writeFileSync(join(outside, 'secret-outside.txt'), 'needle outside the workspace\n');
  symlinkSync(outside, join(fx.ws.dir, 'escape-link'));
  symlinkSync(join(outside, 'secret-outside.txt'), join(fx.ws.dir, 'escape-file.txt'));
});
afterAll(async () => {
  await fx?.close();
  blocker?.close();
  if (outside) rmSync(outside, { recursive: true, force: true });
});

/** Opens a raw WebSocket; resolves with 'open' or the HTTP status of a refused upgrade. */
function rawConnect(headers: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(fx.host.url, { headers });
    ws.once('open', () => {
      ws.close();
      resolve('open');
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(String(res.statusCode));
      ws.terminate();
    });
    ws.once('error', (e) => resolve(`error ${e.message}`));
  });
}

/** Sends frames on a raw connection; collects replies until the server closes or `count` replies arrive. */
function rawSession(frames: (string | Buffer)[], count: number): Promise<{ replies: unknown[]; closeCode?: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(fx.host.url);
    const replies: unknown[] = [];
    const done = (closeCode?: number) => {
      resolve({ replies, closeCode });
      ws.terminate();
    };
    ws.on('message', (m) => {
      replies.push(JSON.parse(String(m)));
      if (replies.length >= count) done();
    });
    ws.once('close', (code) => done(code));
    ws.once('open', () => {
      for (const f of frames) ws.send(f);
    });
  });
}

describe('start-up', () => {
  it('falls back to the next port when the configured one is taken, and says so in settings.json', () => {
    expect(fx.host.port).toBeGreaterThan(blockedPort);
    expect(fx.host.port).toBeLessThan(blockedPort + 10);
    expect(JSON.parse(readFileSync(join(fx.ws.dir, '.vscode/settings.json'), 'utf8'))['idea.server.port']).toBe(
      fx.host.port,
    );
  });
  it('takes auth settings from the user, never from the workspace', async () => {
    expect(fx.host.token).toBe(USER_TOKEN);
    expect(fx.client.handshake.authRequired).toBe(true);
    expect(await errorCode(connect({ url: fx.host.url, token: 'repo-pinned' }))).toBe('UNAUTHORIZED');
  });
});

describe('transport', () => {
  it('listens on the loopback address only', () => {
    // Every LISTEN socket on the server's port, from /proc/net/tcp{,6}: local address must be 127.0.0.1.
    const hexPort = fx.host.port.toString(16).toUpperCase().padStart(4, '0');
    const rows = ['/proc/net/tcp', '/proc/net/tcp6']
      .flatMap((f) => (existsSync(f) ? readFileSync(f, 'utf8').split('\n').slice(1) : []))
      .map((l) => l.trim().split(/\s+/))
      .filter((c) => c[1]?.endsWith(`:${hexPort}`) && c[3] === '0A');
    expect(rows.map((c) => c[1])).toEqual([`0100007F:${hexPort}`]);
  });
  it('the runtime refuses to bind anywhere but loopback', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.10']) {
      await expect(
        startWebSocketServer({ host, port: 0, createSession: () => ({ onFrame() {}, onClose() {} }) }),
      ).rejects.toThrow(/non-loopback/);
    }
  });
  it('refuses browser origins and foreign Host headers (DNS rebinding), accepts loopback ones', async () => {
    expect(await rawConnect({ Origin: 'https://evil.example' })).toBe('403');
    expect(await rawConnect({ Origin: 'null' })).toBe('403');
    expect(await rawConnect({ Host: `evil.example:${fx.host.port}` })).toBe('403');
    expect(await rawConnect({ Origin: `http://127.0.0.1:${fx.host.codeServerPort}` })).toBe('open');
    expect(await rawConnect({})).toBe('open');
  });
  it('requires the token', async () => {
    expect(await errorCode(connect({ url: fx.host.url, token: 'wrong' }))).toBe('UNAUTHORIZED');
    expect(await errorCode(connect({ url: fx.host.url }))).toBe('UNAUTHORIZED');
  });
  it('never serves a request sent before the handshake', async () => {
    const r = await rawSession(
      [JSON.stringify({ topic: '/app/vscode/fs/findFiles', requestId: 'r1', params: { query: 'a' } })],
      1,
    );
    expect(r.replies[0]).toMatchObject({ type: 'handshake', error: { code: 'INVALID_REQUEST' } });
  });
  it('closes oversized frames with 1009 and survives garbage', async () => {
    const hello = JSON.stringify({ type: 'handshake', token: fx.host.token });
    const big = await rawSession([hello, Buffer.alloc(5 * 1024 * 1024, 0x61).toString()], 99);
    expect(big.closeCode).toBe(1009);
    const junk = await rawSession(
      [hello, 'not json', '[1,2]', JSON.stringify({ topic: '/app/vscode/nope', requestId: 'x', params: {} })],
      4,
    );
    expect(junk.replies.slice(1).map((m) => (m as { error: { code: string } }).error.code)).toEqual([
      'PARSE_ERROR',
      'PARSE_ERROR',
      'UNKNOWN_TOPIC',
    ]);
    expect((await fx.client.fsFindFiles({ query: 'shapes' })).totalCount).toBe(1);
  });
});

describe('workspace confinement', () => {
  const escapes = (dir: () => string) => [
    '../outside.txt',
    '/etc/passwd',
    'escape-link/secret-outside.txt',
    'escape-file.txt',
    join(dir(), '..', 'x.ts'),
  ];
  it('refuses paths outside the workspace for every file topic, reads and writes alike', async () => {
    for (const filePath of escapes(() => fx.ws.dir)) {
      const c = fx.client;
      const codes = await Promise.all([
        errorCode(c.navSymbols({ filePath })),
        errorCode(c.navDefinition({ filePath, line: 0, character: 0 })),
        errorCode(c.navReferences({ filePath, line: 0, character: 0 })),
        errorCode(c.diagList({ filePath: [filePath] })),
        errorCode(c.historyList({ filePath })),
        errorCode(c.historyDiff({ filePath })),
        errorCode(c.historyRollback({ filePath, toIndex: 1 })),
        errorCode(c.localhistoryList({ filePath })),
        errorCode(c.localhistoryDiff({ filePath, fromId: 'AbCd.txt' })),
        errorCode(c.localhistoryRollback({ filePath, toId: 'AbCd.txt' })),
      ]);
      expect(codes, filePath).toEqual(Array(10).fill('INVALID_REQUEST'));
    }
    expect(readFileSync(join(outside, 'secret-outside.txt'), 'utf8')).toBe('needle outside the workspace\n');
  });
  it('find, replace and findFiles do not follow symlinks out of the workspace', async () => {
    const found = await fx.client.editFind({ pattern: 'needle outside' });
    expect(found.matches).toEqual([]);
    const replaced = await fx.client.editReplace({ pattern: 'needle outside', replacement: 'pwned' });
    expect(replaced.replacedCount).toBe(0);
    expect(readFileSync(join(outside, 'secret-outside.txt'), 'utf8')).toBe('needle outside the workspace\n');
    expect((await fx.client.fsFindFiles({ query: 'secret-outside' })).files).toEqual([]);
  });
  it('never lets a git ref become an option', async () => {
    const target = join(outside, 'git-output.txt');
    for (const ref of ['-p', `--output=${target}`, '--exec=touch /tmp/pwned']) {
      expect(await errorCode(fx.client.historyDiff({ filePath: 'src/shapes.ts', fromRef: ref })), ref).toBe(
        'INVALID_REQUEST',
      );
      expect(
        await errorCode(fx.client.historyDiff({ filePath: 'src/shapes.ts', fromRef: 'HEAD', toRef: ref })),
        ref,
      ).toBe('INVALID_REQUEST');
    }
    expect(existsSync(target)).toBe(false);
    // A file whose name looks like an option is just a file.
    mkdirSync(join(fx.ws.dir, 'odd'), { recursive: true });
    writeFileSync(join(fx.ws.dir, 'odd/--help'), 'x\n');
    expect(await fx.client.historyList({ filePath: 'odd/--help' })).toEqual({ entries: [], totalCount: 0 });
  });
});
