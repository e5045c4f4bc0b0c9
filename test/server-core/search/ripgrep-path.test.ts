// Where the extension finds VS Code's bundled ripgrep: @vscode/ripgrep (VS Code 1.100) or, in newer
// builds, @vscode/ripgrep-universal with one binary per platform; PATH's rg only when neither exists.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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

  it('falls back to rg on PATH when VS Code bundles none', () => {
    expect(ripgrepPath(appRoot('none'), 'linux', 'x64')).toBe('rg');
    expect(ripgrepPath(undefined)).toBe('rg');
  });
});
