// Runs ripgrep (VS Code's bundled binary when present) per workspace folder, with VS Code search's
// file-selection rules: hidden files included, .gitignore honoured even outside a git repository,
// symlinks not followed (so nothing outside the folder is read), exclude globs as `!glob` overrides.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export function ripgrepPath(appRoot: string | undefined): string {
  if (appRoot) {
    for (const p of ['node_modules/@vscode/ripgrep/bin/rg', 'node_modules.asar.unpacked/@vscode/ripgrep/bin/rg']) {
      const full = join(appRoot, p);
      if (existsSync(full)) return full;
    }
  }
  return 'rg';
}

export interface FileSelection {
  /** Glob a file must match (relative to the folder), e.g. "**\/*.ts". */
  include?: string;
  /** Globs a file must not match. */
  excludes: string[];
  /** Honour .gitignore/.ignore files (VS Code's search.useIgnoreFiles). */
  useIgnoreFiles: boolean;
}

/**
 * VS Code matches a glob against the whole folder-relative path ("*.ts" = top level only), rg against
 * any path suffix when the glob has no "/" (gitignore rules): a leading "/" anchors it like VS Code.
 */
export function anchorGlob(glob: string): string {
  const g = glob.replace(/^\.\//, '');
  return g.startsWith('/') || g.startsWith('**') || g.startsWith('{') ? g : '/' + g;
}

function selectionArgs(sel: FileSelection): string[] {
  const args = ['--hidden', '--no-config', '--no-require-git', '--no-ignore-global', '--no-ignore-parent', '--no-messages'];
  if (!sel.useIgnoreFiles) args.push('--no-ignore');
  if (sel.include && sel.include !== '**/*' && sel.include !== '**') args.push('--glob', anchorGlob(sel.include));
  for (const g of sel.excludes) args.push('--glob', '!' + anchorGlob(g));
  return args;
}

/** Spawns rg in `cwd`, feeding stdout line by line; resolves with the exit code and stderr. */
function runLines(rg: string, cwd: string, args: string[], onLine: (line: string) => boolean | void, signal?: AbortSignal, sep = '\n'): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let stderr = '';
    let rest = '';
    let stopped = false;
    const stop = () => { stopped = true; child.kill(); };
    signal?.addEventListener('abort', stop, { once: true });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stopped) return;
      const parts = (rest + chunk).split(sep);
      rest = parts.pop() ?? '';
      for (const l of parts) if (onLine(l) === false) { stop(); return; }
    });
    child.stderr.on('data', (c: Buffer) => { if (stderr.length < 8192) stderr += c.toString('utf8'); });
    child.on('error', reject);
    child.on('close', (code) => {
      signal?.removeEventListener('abort', stop);
      if (!stopped && rest) onLine(rest);
      resolvePromise({ code: stopped ? 0 : code, stderr });
    });
  });
}

export interface RgHit { relPath: string; line: number; text: string }

export class RipgrepPatternError extends Error {}

/**
 * Lines that match `pattern` under `cwd` (1 call per workspace folder). `regex` null = fixed string.
 * Calls onHit per matching line (0-based line numbers); returning false stops the search.
 * Rejects with RipgrepPatternError when rg cannot compile the pattern.
 */
export async function rgSearchLines(
  rg: string, cwd: string, q: { regex: string | null; literal: string; caseSensitive: boolean }, sel: FileSelection,
  onHit: (hit: RgHit) => boolean | void, signal?: AbortSignal,
): Promise<void> {
  const args = [...selectionArgs(sel), '--null', '--line-number', '--no-heading', '--with-filename', '--color', 'never'];
  args.push(q.caseSensitive ? '--case-sensitive' : '--ignore-case');
  if (q.regex === null) args.push('--fixed-strings', '--regexp', q.literal);
  else args.push('--pcre2', '--regexp', q.regex);
  args.push('--', '.');
  const res = await runLines(rg, cwd, args, (l) => {
    const nul = l.indexOf('\0');
    if (nul < 0) return;
    const colon = l.indexOf(':', nul + 1);
    if (colon < 0) return;
    let text = l.slice(colon + 1);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    return onHit({ relPath: stripDot(l.slice(0, nul)), line: Number(l.slice(nul + 1, colon)) - 1, text });
  }, signal);
  // rg: 0 = matches, 1 = none, 2 = error (a bad pattern, or some unreadable file while others matched).
  if (res.code === 2 && /regex|pcre2|pattern/i.test(res.stderr)) throw new RipgrepPatternError(res.stderr.trim());
  if (res.code !== null && res.code > 2) throw new Error(`ripgrep failed (${res.code}): ${res.stderr.trim()}`);
}

/** Every file rg would search under `cwd` with this selection, as "/"-separated paths relative to cwd. */
export async function rgListFiles(rg: string, cwd: string, sel: FileSelection, onFile: (relPath: string) => boolean | void, signal?: AbortSignal): Promise<void> {
  const res = await runLines(rg, cwd, [...selectionArgs(sel), '--files', '--null', '--', '.'], (p) => {
    if (p && onFile(stripDot(p)) === false) return false;
  }, signal, '\0');
  if (res.code !== null && res.code > 2) throw new Error(`ripgrep failed (${res.code}): ${res.stderr.trim()}`);
}

function stripDot(p: string): string {
  return p.startsWith('./') ? p.slice(2) : p;
}
