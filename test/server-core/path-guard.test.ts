import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInWorkspace, resolveWorkspacePath } from '../../server-core/path-guard';

let base: string, ws: string, ws2: string, outside: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'idea-pg-'));
  ws = join(base, 'ws');
  ws2 = join(base, 'ws2');
  outside = join(base, 'outside');
  mkdirSync(join(ws, 'src'), { recursive: true });
  mkdirSync(ws2);
  mkdirSync(outside);
  writeFileSync(join(ws, 'src/a.ts'), 'a');
  writeFileSync(join(ws2, 'only2.txt'), 'b');
  writeFileSync(join(outside, 'secret.txt'), 's');
  symlinkSync(outside, join(ws, 'link-out'));
  symlinkSync(join(outside, 'secret.txt'), join(ws, 'secret-link.txt'));
  symlinkSync(join(ws, 'src'), join(ws, 'link-in'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const code = (f: () => unknown) => {
  try {
    f();
    return 'ok';
  } catch (e) {
    return (e as { code?: string }).code;
  }
};

describe('resolveWorkspacePath', () => {
  it('resolves relative paths against the folder where they exist', () => {
    expect(resolveWorkspacePath('src/a.ts', [ws, ws2]).path).toBe(join(ws, 'src/a.ts'));
    expect(resolveWorkspacePath('only2.txt', [ws, ws2]).path).toBe(join(ws2, 'only2.txt'));
    expect(resolveWorkspacePath('new/file.ts', [ws, ws2]).path).toBe(join(ws, 'new/file.ts'));
  });
  it('accepts absolute paths inside and symlinks that stay inside', () => {
    expect(resolveWorkspacePath(join(ws, 'src/a.ts'), [ws]).folder).toBe(ws);
    expect(resolveWorkspacePath(join(ws, 'link-in/a.ts'), [ws]).real).toMatch(/ws\/src\/a\.ts$/);
  });
  it('refuses .. escapes, absolute outside paths and symlink escapes with INVALID_REQUEST', () => {
    expect(code(() => resolveWorkspacePath('../outside/secret.txt', [ws]))).toBe('INVALID_REQUEST');
    expect(code(() => resolveWorkspacePath(join(outside, 'secret.txt'), [ws]))).toBe('INVALID_REQUEST');
    expect(code(() => resolveWorkspacePath('/etc/passwd', [ws]))).toBe('INVALID_REQUEST');
    expect(code(() => resolveWorkspacePath('link-out/secret.txt', [ws]))).toBe('INVALID_REQUEST');
    expect(code(() => resolveWorkspacePath('secret-link.txt', [ws]))).toBe('INVALID_REQUEST');
    // A file that does not exist yet under a symlinked directory is judged by the directory's target.
    expect(code(() => resolveWorkspacePath('link-out/new-file.txt', [ws]))).toBe('INVALID_REQUEST');
    expect(code(() => resolveWorkspacePath(`${ws}-evil/x`, [ws]))).toBe('INVALID_REQUEST');
  });
  it('refuses empty, NUL and no-folder cases', () => {
    expect(code(() => resolveWorkspacePath('', [ws]))).toBe('INVALID_REQUEST');
    expect(code(() => resolveWorkspacePath('a\0b', [ws]))).toBe('INVALID_REQUEST');
    expect(code(() => resolveWorkspacePath('src/a.ts', []))).toBe('INVALID_REQUEST');
  });
  it('isInWorkspace follows symlinks', () => {
    expect(isInWorkspace(join(ws, 'src/a.ts'), [ws])).toBe(true);
    expect(isInWorkspace(join(ws, 'secret-link.txt'), [ws])).toBe(false);
  });
});
