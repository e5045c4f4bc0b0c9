// Where the extension finds VS Code's bundled ripgrep: @vscode/ripgrep (VS Code 1.100) or, in newer
// builds, @vscode/ripgrep-universal with one binary per platform; PATH's rg (absolute folders only)
// when neither exists, else none.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ripgrepPath } from '../../../server-core/search/ripgrep';

const tmp = mkdtempSync(join(tmpdir(), 'idea-rgpath-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
function appRoot(name: string, rel?: string): string {
  const root = join(tmp, name);
  mkdirSync(root, { recursive: true });
  if (rel) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), '');
    chmodSync(join(root, rel), 0o755);
  }
  return root;
}

describe('ripgrepPath', () => {
  it('finds @vscode/ripgrep (VS Code 1.100, code-server 4.100)', () => {
    const root = appRoot('old', 'node_modules/@vscode/ripgrep/bin/rg');
    expect(ripgrepPath(root, 'linux', 'x64')).toBe(join(root, 'node_modules/@vscode/ripgrep/bin/rg'));
  });

  it('finds @vscode/ripgrep-universal for this platform (VS Code 1.139, code-server 4.139)', () => {
    const root = appRoot('new', 'node_modules/@vscode/ripgrep-universal/bin/linux-x64/rg');
    mkdirSync(join(root, 'node_modules/@vscode/ripgrep-universal/bin/linux-arm64'), { recursive: true });
    writeFileSync(join(root, 'node_modules/@vscode/ripgrep-universal/bin/linux-arm64/rg'), '');
    expect(ripgrepPath(root, 'linux', 'x64')).toBe(
      join(root, 'node_modules/@vscode/ripgrep-universal/bin/linux-x64/rg'),
    );
    expect(ripgrepPath(root, 'linux', 'arm64')).toBe(
      join(root, 'node_modules/@vscode/ripgrep-universal/bin/linux-arm64/rg'),
    );
  });

  it('finds the unpacked copy of a desktop build and rg.exe on Windows', () => {
    const root = appRoot('desktop', 'node_modules.asar.unpacked/@vscode/ripgrep-universal/bin/win32-x64/rg.exe');
    expect(ripgrepPath(root, 'win32', 'x64')).toBe(
      join(root, 'node_modules.asar.unpacked/@vscode/ripgrep-universal/bin/win32-x64/rg.exe'),
    );
  });

  it("falls back to rg in PATH's absolute folders when VS Code bundles none, else none", () => {
    const bin = appRoot('bin', 'rg');
    const onPath = { PATH: `bin:.::${bin}` };
    expect(ripgrepPath(appRoot('none'), 'linux', 'x64', onPath)).toBe(join(bin, 'rg'));
    expect(ripgrepPath(undefined, 'linux', 'x64', onPath)).toBe(join(bin, 'rg'));
    // Relative entries are never searched: here they would find the rg beside the test's own folder.
    expect(ripgrepPath(undefined, 'linux', 'x64', { PATH: `${relative(process.cwd(), bin)}:.:` })).toBeNull();
  });
});
