// What users install: the packed .vsix (`npm run package:extension`), installed with
// `code-server --install-extension` into the newest VS Code of the matrix (not the development path),
// then the conformance CLI run as a process against it by URL and token, writing JUnit.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_USER_SETTINGS } from '../../conformance/launch';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { launchHost, REPO_ROOT, type LiveHost } from '../../livehost';

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'extension', 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
const VSIX = join(REPO_ROOT, 'extension', 'dist', `${manifest.name}-${manifest.version}.vsix`);

let host: LiveHost | undefined;
let base: string;
let workspace: string;
beforeAll(async () => {
  execFileSync('npm', ['run', '--silent', 'package:extension'], { cwd: REPO_ROOT, stdio: 'pipe' });
  base = mkdtempSync(join(tmpdir(), 'idea-vsix-'));
  workspace = buildFixtureWorkspace(join(base, 'ws')).dir;
  host = await launchHost({ workspace, vsix: VSIX, vscode: 'newest', userSettings: HOST_USER_SETTINGS });
}, 240_000);
afterAll(async () => {
  await host?.close();
  rmSync(base, { recursive: true, force: true });
});

describe(`the .vsix in VS Code (newest build)`, () => {
  it('is installed as a real extension folder, not a link to the source tree', () => {
    const exts = join(host!.runDir, 'exts');
    const folder = readdirSync(exts).find((n) => n.startsWith(`${manifest.publisher}.${manifest.name}-${manifest.version}`));
    expect(folder, `installed extensions: ${readdirSync(exts).join(', ')}`).toBeDefined();
    expect(lstatSync(join(exts, folder!)).isSymbolicLink()).toBe(false);
    expect(existsSync(join(exts, folder!, 'dist', 'extension.cjs'))).toBe(true);
    expect(existsSync(join(exts, folder!, 'src'))).toBe(false); // only the bundles ship
    expect(host!.build.name).toBe('newest');
  });

  it('passes the conformance suite run as a process by URL and token, with JUnit output', () => {
    const junit = join(base, 'conformance.xml');
    const r = spawnSync('npx', ['tsx', 'conformance/cli.ts', 'run', '--url', host!.url, '--workspace', workspace, '--reporter', `junit:${junit}`], {
      cwd: REPO_ROOT, encoding: 'utf8', timeout: 180_000,
      env: { ...process.env, IDEA_TOKEN: host!.token }, // not on the command line, where ps would show it
    });
    expect(r.status, `${r.stdout}\n${r.stderr}`.slice(-3000)).toBe(0);
    const xml = readFileSync(junit, 'utf8');
    const suites = /<testsuites[^>]*\btests="(\d+)"[^>]*\bfailures="(\d+)"/.exec(xml);
    expect(suites, xml.slice(0, 400)).not.toBeNull();
    expect(Number(suites![1])).toBeGreaterThan(150);
    expect(Number(suites![2])).toBe(0);
    expect(`${r.stdout}${r.stderr}`).not.toContain(host!.token);
  });
});
