// idea-server's LSP client on its failure paths, against a scriptable fake server
// (fixtures/fake-server.mjs): a missing command, an unconfigured file type, cancellation and timeout
// ($/cancelRequest reaches the server), a server that keeps dying (bounded restarts), a shutdown the
// server ignores (killed with its own child), and re-syncing a file that changes on disk.
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LspClient, type LspClientOptions, MAX_TRANSIENT } from '../../../idea-server/src/lsp/client';
import { LspAbortError, LspFileError, LspTimeoutError, LspUnavailableError } from '../../../idea-server/src/lsp/errors';
import { lspLanguageFeatures } from '../../../idea-server/src/lsp-features';
import { poll } from '../../../runtime/poll';
import { until } from '../../support/wait';
import { running } from './processes';

const FAKE = join(import.meta.dirname, 'fixtures', 'fake-server.mjs');
const dir = mkdtempSync(join(tmpdir(), 'idea-lsp-fake-'));
const file = join(dir, 'one.fake');
writeFileSync(file, 'abc\n');
let n = 0;
const clients: LspClient[] = [];

afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.shutdown()));
}, 60_000);

/** A client whose `fake` language (files *.fake) runs the fake server with `flags`; returns its log reader. */
function fake(flags: string[], options: Partial<LspClientOptions> = {}) {
  const log = join(dir, `log-${++n}.txt`);
  writeFileSync(log, '');
  const client = new LspClient({
    rootPath: dir,
    servers: [{ language: 'fake', command: process.execPath, args: [FAKE, '--log', log, ...flags] }],
    ...options,
  });
  clients.push(client);
  const lines = () => readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const logged = (line: string) =>
    until(`"${line}" in the fake server's log`, () => lines().includes(line), { timeoutMs: 20_000, detail: lines });
  return { client, lines, logged };
}

describe('LspClient failure paths', () => {
  it('a missing command is "unavailable for <lang>", every time, and nothing crashes', async () => {
    const client = new LspClient({ rootPath: dir, servers: ['fake=idea-no-such-language-server-xyz --stdio'] });
    clients.push(client);
    for (let i = 0; i < 2; i++) {
      const err = await client.definition(file, 0, 0).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LspUnavailableError);
      expect((err as LspUnavailableError).reason).toBe('missing');
      expect((err as Error).message).toBe(
        "language server unavailable for fake: command not found: idea-no-such-language-server-xyz (not in PATH's absolute folders; relative PATH entries are never searched)",
      );
    }
  });

  it('a server whose preflight refuses is unavailable with its reason, and is never started', async () => {
    const log = join(dir, 'preflight-log.txt');
    let checks = 0;
    const client = new LspClient({
      rootPath: dir,
      servers: [
        {
          language: 'fake',
          command: process.execPath,
          args: [FAKE, '--log', log],
          preflight: () => (++checks === 1 ? 'its own tsserver is missing' : undefined),
        },
      ],
    });
    clients.push(client);
    await expect(client.definition(file, 0, 0)).rejects.toMatchObject({
      name: 'LspUnavailableError',
      reason: 'missing',
      message: 'language server unavailable for fake: its own tsserver is missing',
    });
    expect(existsSync(log), 'the fake server wrote its log: it was started').toBe(false);
    // Checked again before the next start: once it passes, the server starts.
    expect((await client.definition(file, 1, 0)).locations).toHaveLength(1);
    expect(checks).toBe(2);
  });

  it('a file no server is configured for: unavailable for nav, no diagnostics', async () => {
    const { client } = fake([]);
    const md = join(dir, 'notes.md');
    writeFileSync(md, '# x\n');
    await expect(client.symbols(md)).rejects.toMatchObject({
      name: 'LspUnavailableError',
      reason: 'unconfigured',
      message: expect.stringContaining('.md files'),
    });
    await expect(client.diagnostics([md])).resolves.toEqual({ diagnostics: [], totalCount: 0 });
    await expect(client.symbols('relative/one.fake')).rejects.toBeInstanceOf(LspFileError);
  });

  // clause T48: the core's Unavailable says why: none for a language no server is configured for, down
  // for a server that cannot start.
  it('as language features: unavailable with the kind T48 names', async () => {
    const { client } = fake([]);
    const md = join(dir, 'kinds.md');
    writeFileSync(md, '# x\n');
    const features = lspLanguageFeatures(client);
    const signal = new AbortController().signal;
    for (const answer of [features.diagnostics(md, signal), features.documentSymbols(md, signal, 'wait')])
      await expect(answer).resolves.toEqual({
        unavailable: 'language server unavailable for .md: no language server is configured for .md files',
        kind: 'none',
      });
    const missing = new LspClient({ rootPath: dir, servers: ['fake=idea-no-such-language-server-xyz --stdio'] });
    clients.push(missing);
    await expect(lspLanguageFeatures(missing).diagnostics(file, signal)).resolves.toMatchObject({ kind: 'down' });
    await expect(
      lspLanguageFeatures(missing).definition(file, { line: 0, character: 0 }, signal),
    ).resolves.toMatchObject({
      kind: 'down',
    });
  });

  // A folder-wide nav/findSymbol asks hundreds of files: those no project or coverage needs are closed
  // beyond the MAX_TRANSIENT most recent, so every later request does not sync them all.
  it(`keeps the ${MAX_TRANSIENT} most recent files requests opened, and every loaded or covered one`, async () => {
    const { client, lines } = fake([]);
    const files = Array.from({ length: MAX_TRANSIENT + 6 }, (_, i) => join(dir, `t${String(i).padStart(3, '0')}.fake`));
    for (const f of files) writeFileSync(f, 'x\n');
    expect(await client.load([files[0]!])).toEqual([]);
    await client.cover([files[1]!]);
    const name = (f: string) => `closed:${f.split('/').pop()}`;
    const closed = () => lines().filter((l) => l.startsWith('closed:'));
    for (const f of files.slice(2, -1)) await client.definition(f, 0, 0);
    // 67 opened, 64 kept: the three least recent closed.
    await until('three files closed', () => closed().length === 3, { timeoutMs: 20_000, detail: closed });
    expect(closed()).toEqual(files.slice(2, 5).map(name));
    await client.definition(files[5]!, 0, 0); // used again: the most recent now
    await client.definition(files.at(-1)!, 0, 0);
    await until('a fourth file closed', () => closed().length === 4, { timeoutMs: 20_000, detail: closed });
    expect(closed().at(-1)).toBe(name(files[6]!));
    client.release([files[0]!, files[1]!]); // the loaded one stays open, the covered one closes
    await until('the covered file closed', () => closed().length === 5, { timeoutMs: 20_000, detail: closed });
    expect(closed().at(-1)).toBe(name(files[1]!));
  });

  it('a position past the end of the file, and a command that cannot even be spawned, are clear errors', async () => {
    const { client } = fake([]);
    await expect(client.definition(file, 2, 0)).rejects.toMatchObject({
      name: 'LspPositionError',
      message: 'line 2 is beyond the end of the file (2 lines)',
    });
    await expect(client.references(file, 0, -1)).rejects.toMatchObject({ name: 'LspPositionError' });
    expect((await client.definition(file, 1, 0)).locations).toHaveLength(1);
    const bad = new LspClient({ rootPath: dir, servers: [{ language: 'fake', command: 'nul\0byte', args: [] }] });
    clients.push(bad);
    await expect(bad.definition(file, 0, 0)).rejects.toMatchObject({ name: 'LspUnavailableError', reason: 'failed' });
  });

  it('the line check follows the file as it changes on disk', async () => {
    const own = join(dir, 'growing.fake');
    writeFileSync(own, 'a\n');
    const { client } = fake([]);
    const beyond = { name: 'LspPositionError', message: 'line 2 is beyond the end of the file (2 lines)' };
    await expect(client.definition(own, 2, 0)).rejects.toMatchObject(beyond);
    writeFileSync(own, 'a\nb\nc\n');
    expect((await client.definition(own, 2, 0)).locations).toHaveLength(1);
    expect((await client.definition(own, 3, 0)).locations).toHaveLength(1);
    writeFileSync(own, 'a\n');
    await expect(client.definition(own, 2, 0)).rejects.toMatchObject(beyond);
  });

  it('aborting a request rejects at once and sends $/cancelRequest; so does a timeout', async () => {
    const { client, logged, lines } = fake(['--hang']);
    const ac = new AbortController();
    const pending = client.definition(file, 0, 0, { signal: ac.signal });
    await logged('textDocument/definition');
    ac.abort();
    await expect(pending).rejects.toBeInstanceOf(LspAbortError);
    await logged('cancel:textDocument/definition');

    await expect(client.definition(file, 0, 0, { timeoutMs: 300 })).rejects.toBeInstanceOf(LspTimeoutError);
    await poll(() => (lines().filter((l) => l === 'cancel:textDocument/definition').length === 2 ? true : undefined), {
      timeoutMs: 20_000,
    });
    expect(lines().filter((l) => l === 'cancel:textDocument/definition')).toHaveLength(2);

    const already = AbortSignal.abort();
    await expect(client.definition(file, 0, 0, { signal: already })).rejects.toBeInstanceOf(LspAbortError);
  });

  it('identical requests in flight share one; it is cancelled only when every caller gave up', async () => {
    const { client, lines } = fake([]);
    const burst = await Promise.all(Array.from({ length: 20 }, () => client.definition(file, 0, 0)));
    expect(lines().filter((l) => l === 'textDocument/definition')).toHaveLength(1);
    expect(new Set(burst.map((r) => JSON.stringify(r))).size).toBe(1);
    burst[0]!.locations.length = 0; // each caller has its own answer
    expect(burst[1]!.locations).toHaveLength(1);
    // Asked again once answered: a new request.
    await client.definition(file, 0, 0);
    expect(lines().filter((l) => l === 'textDocument/definition')).toHaveLength(2);

    const hanging = fake(['--hang']);
    const [a, b] = [new AbortController(), new AbortController()];
    const first = hanging.client.definition(file, 0, 0, { signal: a.signal });
    const second = hanging.client.definition(file, 0, 0, { signal: b.signal });
    await hanging.logged('textDocument/definition');
    a.abort();
    await expect(first).rejects.toBeInstanceOf(LspAbortError);
    await new Promise((r) => setTimeout(r, 200));
    expect(hanging.lines()).not.toContain('cancel:textDocument/definition');
    b.abort();
    await expect(second).rejects.toBeInstanceOf(LspAbortError);
    await hanging.logged('cancel:textDocument/definition');
    expect(hanging.lines().filter((l) => l === 'textDocument/definition')).toHaveLength(1);
  });

  it('a server that keeps dying is restarted at most maxRestarts times, then reported unavailable', async () => {
    const { client } = fake(['--exit-on-start', '3'], { maxRestarts: 2 });
    for (let i = 0; i < 3; i++) {
      await expect(client.definition(file, 0, 0)).rejects.toMatchObject({
        reason: 'crashed',
        message: 'language server unavailable for fake: the server exited (code 3)',
      });
    }
    await expect(client.definition(file, 0, 0)).rejects.toMatchObject({
      reason: 'crashed',
      message: expect.stringMatching(
        /^language server unavailable for fake: the server exited \(code 3\) \(gave up after 3 starts within 60000 ms\)$/,
      ),
    });
  });

  it('a request in flight when the server dies fails as crashed; the next one runs on a restarted server', async () => {
    const { client, lines } = fake(['--crash-once', join(dir, `crashed-${n + 1}`)]);
    await expect(client.definition(file, 0, 0)).rejects.toMatchObject({
      name: 'LspUnavailableError',
      reason: 'crashed',
      message: 'language server unavailable for fake: the server exited (code 9)',
    });
    expect(client.serverPid('fake')).toBeUndefined();
    expect((await client.definition(file, 0, 0)).locations).toHaveLength(1);
    expect(lines().filter((l) => l === 'initialize' || l.startsWith('didOpen'))).toEqual([
      'initialize',
      'didOpen:1',
      'initialize',
      'didOpen:1',
    ]);
  });

  it('shutdown: shutdown + exit; a server ignoring them is killed after the timeout, with its own child', async () => {
    const polite = fake(['--grandchild']);
    await polite.client.definition(file, 0, 0);
    const pid = polite.client.serverPid('fake')!;
    await polite.client.shutdown();
    expect(polite.lines().filter((l) => l === 'shutdown' || l === 'exit')).toEqual(['shutdown', 'exit']);
    expect(running(pid)).toBe(false);

    const stubborn = fake(['--ignore-shutdown', '--grandchild'], { shutdownTimeoutMs: 300 });
    await stubborn.client.definition(file, 0, 0);
    const spid = stubborn.client.serverPid('fake')!;
    const grandchild = Number(
      stubborn
        .lines()
        .find((l) => l.startsWith('grandchild:'))!
        .slice('grandchild:'.length),
    );
    expect(running(grandchild)).toBe(true);
    await stubborn.client.shutdown();
    expect(stubborn.lines()).toContain('shutdown');
    const gone = await poll(() => (!running(spid) && !running(grandchild) ? true : undefined), { timeoutMs: 10_000 });
    expect(gone).toBe(true);
    await expect(stubborn.client.definition(file, 0, 0)).rejects.toMatchObject({ reason: 'stopped' });
  });

  it('a file is opened once, re-sent when it changes on disk, and closed when it is gone', async () => {
    const own = join(dir, 'changing.fake');
    writeFileSync(own, 'one\n');
    const { client, lines, logged } = fake([]);
    await client.definition(own, 0, 0);
    await client.definition(own, 0, 0);
    expect(lines().filter((l) => l.startsWith('did'))).toEqual(['didOpen:1']);
    writeFileSync(own, 'two, longer\n');
    const [answer] = (await client.definition(own, 0, 0)).locations;
    expect(answer).toMatchObject({ filePath: own, line: 0, character: 0, endLine: 0, endCharacter: 3, code: 'two' });
    await logged('didChange:2');
    unlinkSync(own);
    await expect(client.definition(own, 0, 0)).rejects.toBeInstanceOf(LspFileError);
    await logged('didClose');
  });
});
