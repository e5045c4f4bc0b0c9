// The per-user registry: private directory and entries, atomic writes, what a reader refuses, and
// stale entries cleaned.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ensureRegistryDir,
  entryFileName,
  listRegisteredServers,
  parseRegistryEntry,
  type RegistryEntry,
  registerServer,
  registryDir,
} from '../../runtime/registry';
import { loopbackListeners } from './listeners';

const tmp = mkdtempSync(join(tmpdir(), 'idea-registry-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(tmp, `r${++n}`, 'servers');

const { listening, closeLast } = loopbackListeners();
/** A pid that existed and is gone now. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(r.stdout.toString());
}
const mode = (p: string) => statSync(p).mode & 0o777;
const base = (over: Partial<RegistryEntry> = {}) => ({
  pid: process.pid,
  port: 7200,
  protocolVersion: '0.1.6',
  workspaces: ['/w'],
  token: 't',
  authRequired: true,
  ...over,
});

// clause H14: the registry is a 0700 folder of 0600 entries; readers refuse entries others could write.
describe('the registry directory and its entries', () => {
  it('is ~/.idea-protocol/servers unless IDEA_REGISTRY_DIR says otherwise', () => {
    expect(registryDir({ HOME: '/home/u' })).toMatch(/\.idea-protocol\/servers$/);
    expect(registryDir({ IDEA_REGISTRY_DIR: '/x/y' })).toBe('/x/y');
  });

  it('creates the directory 0700 and writes each entry 0600, whole', async () => {
    const dir = freshDir();
    const port = await listening();
    const reg = registerServer(base({ port }), dir);
    expect(mode(dir)).toBe(0o700);
    expect(mode(reg.file)).toBe(0o600);
    const entry = JSON.parse(readFileSync(reg.file, 'utf8')) as RegistryEntry;
    expect(entry).toMatchObject({
      registry: 1,
      pid: process.pid,
      port,
      url: `ws://127.0.0.1:${port}`,
      token: 't',
      workspaces: ['/w'],
    });
    expect(Number.isNaN(Date.parse(entry.startedAt))).toBe(false);
    reg.update({ workspaces: ['/w', '/v'] });
    expect((JSON.parse(readFileSync(reg.file, 'utf8')) as RegistryEntry).workspaces).toEqual(['/w', '/v']);
    expect(readdirSync(dir)).toEqual([entryFileName(process.pid, port)]); // no temporary file left
    reg.remove();
    expect(existsSync(reg.file)).toBe(false);
    reg.update({ workspaces: [] }); // after remove: nothing comes back
    expect(existsSync(reg.file)).toBe(false);
  });

  it('tightens a looser directory of ours, refuses one owned by someone else', () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    ensureRegistryDir(dir);
    expect(mode(dir)).toBe(0o700);
    const foreign = freshDir();
    mkdirSync(foreign, { recursive: true, mode: 0o700 });
    if (process.getuid?.() === 0) chownSync(foreign, 65534, 65534);
    const target = process.getuid?.() === 0 ? foreign : '/';
    expect(() => ensureRegistryDir(target)).toThrow(/owned by uid|mode/);
  });
});

describe('reading the registry', () => {
  it('lists live servers and refuses entries others could have written or that lie about the url', async () => {
    const dir = freshDir();
    const port = await listening();
    registerServer(base({ port }), dir);
    const write = (name: string, body: unknown, fileMode = 0o600) => {
      const f = join(dir, name);
      writeFileSync(f, typeof body === 'string' ? body : JSON.stringify(body), { mode: fileMode });
      chmodSync(f, fileMode);
      return f;
    };
    const good = { registry: 1, ...base({ port }), url: `ws://127.0.0.1:${port}`, startedAt: new Date().toISOString() };
    write('loose.json', { ...good, pid: process.pid }, 0o644);
    write('remote.json', { ...good, url: 'ws://10.0.0.1:7200' });
    write('garbage.json', '{not json');
    write('big.json', `${' '.repeat(70 * 1024)}{}`);
    symlinkSync(join(dir, entryFileName(process.pid, port)), join(dir, 'link.json'));
    if (process.getuid?.() === 0) chownSync(write('foreign.json', good), 65534, 65534);

    const l = await listRegisteredServers({ dir });
    expect(l.servers.map((s) => s.port)).toEqual([port]);
    const why = Object.fromEntries(l.ignored.map((i) => [i.file.split('/').pop(), i.reason]));
    expect(why['loose.json']).toMatch(/mode 644/);
    expect(why['remote.json']).toMatch(/url is not ws:\/\/127\.0\.0\.1/);
    expect(why['garbage.json']).toBe('not JSON');
    expect(why['big.json']).toMatch(/larger than/);
    expect(why['link.json']).toMatch(/not a regular file/);
    if (process.getuid?.() === 0) expect(why['foreign.json']).toMatch(/owned by uid 65534/);
  });

  it('cleans entries whose process is gone or whose port nobody listens on', async () => {
    const dir = freshDir();
    const live = await listening();
    const closedPort = await listening();
    await closeLast();
    registerServer(base({ port: live }), dir);
    const gone = registerServer(base({ pid: deadPid(), port: 7301 }), dir);
    const silent = registerServer(base({ port: closedPort }), dir);
    const l = await listRegisteredServers({ dir });
    expect(l.servers.map((s) => s.port)).toEqual([live]);
    const reasons = Object.fromEntries(l.stale.map((s) => [s.entry.port, s.reason]));
    expect(reasons).toEqual({
      [closedPort]: `nothing listens on port ${closedPort}`,
      7301: expect.stringMatching(/^process \d+ is gone$/),
    });
    expect(existsSync(gone.file)).toBe(false);
    expect(existsSync(silent.file)).toBe(false);
    expect(readdirSync(dir)).toHaveLength(1);
  });

  it('an absent registry is empty, not an error', async () => {
    expect(await listRegisteredServers({ dir: join(tmp, 'nowhere') })).toEqual({ servers: [], ignored: [], stale: [] });
  });

  it('parses only complete, well-typed entries', () => {
    const ok = {
      registry: 1,
      pid: 5,
      port: 7200,
      url: 'ws://127.0.0.1:7200',
      protocolVersion: '0.1.6',
      workspaces: ['/w'],
      authRequired: false,
      startedAt: '2026-11-24T00:00:00Z',
    };
    expect(parseRegistryEntry(JSON.stringify(ok))).toEqual(ok);
    expect(parseRegistryEntry(JSON.stringify({ ...ok, registry: 2 }))).toMatch(/format/);
    expect(parseRegistryEntry(JSON.stringify({ ...ok, pid: 1e21 }))).toMatch(/pid/);
    expect(parseRegistryEntry(JSON.stringify({ ...ok, port: 0 }))).toMatch(/port/);
    expect(parseRegistryEntry(JSON.stringify({ ...ok, workspaces: '/w' }))).toMatch(/workspaces/);
    expect(parseRegistryEntry(JSON.stringify({ ...ok, token: '' }))).toMatch(/token/);
    expect(parseRegistryEntry('[]')).toMatch(/object/);
  });
});
