// Runs ripgrep (VS Code's bundled binary when present) per workspace folder, with VS Code search's
// file-selection rules: hidden files included, .gitignore honoured even outside a git repository,
// symlinks not followed (so nothing outside the folder is read), exclude globs as `!glob` overrides.
// Every rg process holds a slot of the shared process limiter while it runs and is started off this
// thread (server-core/spawn). rg's messages are read, not hidden: a file rg could not search
// (unreadable, PCRE2 match limit) comes back as a FileProblem, and callers decide (edit/find fails
// naming the files; fs/findFiles logs them). No configuration of the user's or the workspace's reaches
// rg: --no-config, no RIPGREP_CONFIG_PATH, PATH's absolute folders only (runtime/programs.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findProgramOrUndefined, programEnv } from '../../runtime/programs';
import { invalidRequest } from '../errors';
import { limits } from '../limits/config';
import { withProcessSlot } from '../limits/process-slots';
import { startProcess } from '../spawn/processes';
import { RecordSplitter } from './record-splitter';
import { rgRegexChoices } from './rg-pattern';

/** The ripgrep a VS Code install ships in its app folder, if any. */
export function bundledRipgrep(
  appRoot: string | undefined,
  platform: string = process.platform,
  arch: string = process.arch,
): string | undefined {
  if (!appRoot) return undefined;
  const exe = platform === 'win32' ? 'rg.exe' : 'rg';
  // VS Code up to ~1.10x ships @vscode/ripgrep; newer builds @vscode/ripgrep-universal with one binary per platform.
  const candidates = [
    `node_modules/@vscode/ripgrep/bin/${exe}`,
    `node_modules.asar.unpacked/@vscode/ripgrep/bin/${exe}`,
    `node_modules/@vscode/ripgrep-universal/bin/${platform}-${arch}/${exe}`,
    `node_modules.asar.unpacked/@vscode/ripgrep-universal/bin/${platform}-${arch}/${exe}`,
  ];
  return candidates.map((p) => join(appRoot, p)).find((full) => existsSync(full));
}

/**
 * The extension's ripgrep: VS Code's own, else `rg` in PATH's absolute folders (never one a relative
 * PATH entry finds in the workspace: runtime/programs.ts), else null (the JavaScript search).
 */
export function ripgrepPath(
  appRoot: string | undefined,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  return bundledRipgrep(appRoot, platform, arch) ?? findProgramOrUndefined('rg', env, platform) ?? null;
}

/**
 * rg's environment: PATH's absolute folders only, and no RIPGREP_CONFIG_PATH. `--no-config` already
 * makes rg ignore that file; without the variable, an rg that did not honour the flag finds none either.
 */
export function ripgrepEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out = programEnv(env);
  delete out.RIPGREP_CONFIG_PATH;
  return out;
}

export interface FileSelection {
  /** Glob a file must match (relative to the folder), e.g. "**\/*.ts". */
  include?: string;
  /** Globs a file must not match. */
  excludes: string[];
  /** Honour .gitignore/.ignore files (VS Code's search.useIgnoreFiles). */
  useIgnoreFiles: boolean;
}

/** A file rg (or the JS fallback) could not search; relPath is relative to the folder searched. */
export interface FileProblem {
  relPath: string;
  message: string;
}

/**
 * VS Code matches a glob against the whole folder-relative path ("*.ts" = top level only), rg against
 * any path suffix when the glob has no "/" (gitignore rules): a leading "/" anchors it like VS Code.
 */
export function anchorGlob(glob: string): string {
  const g = glob.replace(/^\.\//, '');
  return g.startsWith('/') || g.startsWith('**') || g.startsWith('{') ? g : `/${g}`;
}

function selectionArgs(sel: FileSelection): string[] {
  // --no-ignore-messages: a malformed line in some .gitignore is not an error of this search.
  const args = [
    '--hidden',
    '--no-config',
    '--no-require-git',
    '--no-ignore-global',
    '--no-ignore-parent',
    '--no-ignore-messages',
  ];
  if (!sel.useIgnoreFiles) args.push('--no-ignore');
  if (sel.include && sel.include !== '**/*' && sel.include !== '**') args.push('--glob', anchorGlob(sel.include));
  for (const g of sel.excludes) args.push('--glob', `!${anchorGlob(g)}`);
  return args;
}

export interface FlowControl {
  pause(): void;
  resume(): void;
}

interface RunOptions {
  sep: number;
  onRecord: (record: string) => boolean | void;
  /** A record longer than limits().maxLineBytes: its first bytes and its length. */
  onOverlong: (head: string, bytes: number) => boolean | void;
  signal?: AbortSignal;
  /** Receives pause/resume of rg's output, for callers that must let work drain (backpressure). */
  onStart?: (flow: FlowControl) => void;
}

interface RunResult {
  code: number | null;
  stderr: string;
  stopped: boolean;
}

/** Most stderr kept: enough for hundreds of file messages. */
const MAX_STDERR = 64 * 1024;

/** Starts rg in `cwd` (server-core/spawn) once a process slot is free, feeding stdout record by record. */
function runRg(rg: string, cwd: string, args: string[], o: RunOptions): Promise<RunResult> {
  return withProcessSlot(
    o.signal,
    () =>
      new Promise<RunResult>((resolvePromise, reject) => {
        let stderr = '';
        let stopped = false;
        const splitter = new RecordSplitter(o.sep, limits().maxLineBytes, o.onRecord, o.onOverlong);
        const stop = () => {
          stopped = true;
          child.kill();
        };
        const child = startProcess(
          { file: rg, args, cwd, env: ripgrepEnv() },
          {
            stdout: (chunk) => {
              if (!stopped && !splitter.push(chunk)) stop();
            },
            stderr: (c) => {
              if (stderr.length < MAX_STDERR) stderr += c.toString('utf8');
            },
            error: (e) => {
              o.signal?.removeEventListener('abort', stop);
              reject(e);
            },
            exit: (code) => {
              o.signal?.removeEventListener('abort', stop);
              if (!stopped) splitter.end();
              resolvePromise({ code: stopped ? 0 : code, stderr, stopped });
            },
          },
        );
        o.signal?.addEventListener('abort', stop, { once: true });
        o.onStart?.({ pause: () => child.pause(), resume: () => child.resume() });
      }),
  );
}

export interface RgHit {
  relPath: string;
  line: number;
  text: string;
}

export class RipgrepPatternError extends Error {}

/** rg's stderr sorted out: per-file problems, files gone meanwhile, and messages about the whole search. */
function parseRgMessages(stderr: string): { files: FileProblem[]; vanished: number; general: string[] } {
  const files: FileProblem[] = [];
  const general: string[] = [];
  let vanished = 0;
  for (let line of stderr.split('\n')) {
    line = line.replace(/\r$/, '');
    if (!line) continue;
    if (line.startsWith('rg: ')) line = line.slice(4);
    if (!line.startsWith('./')) {
      general.push(line);
      continue;
    }
    // "./path: PCRE2: error matching: …" or "./path: Permission denied (os error 13)".
    let at = line.indexOf(': PCRE2: ');
    if (at < 0) at = line.lastIndexOf(': ');
    if (at < 0) {
      general.push(line);
      continue;
    }
    const message = line.slice(at + 2);
    // Gone between listing and reading: nothing in it can be missed.
    if (/\(os error 2\)$/.test(message)) {
      vanished++;
      continue;
    }
    files.push({ relPath: line.slice(2, at), message });
  }
  return { files, vanished, general };
}

/** Messages that are not about one file: a bad glob is bad input, anything else a failure of rg. */
function throwGeneral(general: string[], code: number | null): void {
  const glob = general.find((m) => /error parsing glob/i.test(m));
  if (glob) throw invalidRequest(`invalid glob: ${glob}`);
  if (code !== null && code >= 2)
    throw new Error(`ripgrep failed (${code}): ${general.join('; ').slice(0, 2000) || 'no message'}`);
}

/**
 * Lines that match `pattern` under `cwd` (1 call per workspace folder). `regex` null = fixed string;
 * else the JS pattern, whose candidate lines rg selects with the engine rg-pattern.ts chooses (its
 * default engine on a translation, else PCRE2, which is also tried when rg refuses the translation).
 * Calls onHit per matching line (0-based line numbers); returning false stops the search. Resolves with
 * the files rg could not search (a line over limits().maxLineBytes counts as such). Rejects with
 * RipgrepPatternError when rg cannot compile the pattern, INVALID_REQUEST for a malformed glob.
 */
export async function rgSearchLines(
  rg: string,
  cwd: string,
  q: { regex: string | null; literal: string; caseSensitive: boolean },
  sel: FileSelection,
  onHit: (hit: RgHit) => boolean | void,
  signal?: AbortSignal,
  onStart?: (flow: FlowControl) => void,
): Promise<FileProblem[]> {
  const base = [
    ...selectionArgs(sel),
    '--null',
    '--line-number',
    '--no-heading',
    '--with-filename',
    '--color',
    'never',
  ];
  const choices =
    q.regex === null
      ? [[q.caseSensitive ? '--case-sensitive' : '--ignore-case', '--fixed-strings', '--regexp', q.literal]]
      : rgRegexChoices(q.regex, q.caseSensitive).map((c) => c.args);
  // One flow for the caller, whichever rg runs now.
  let current: FlowControl | undefined;
  let paused = false;
  onStart?.({
    pause: () => {
      paused = true;
      current?.pause();
    },
    resume: () => {
      paused = false;
      current?.resume();
    },
  });
  for (let i = 0; ; i++) {
    try {
      return await rgSearchOnce(rg, cwd, [...base, ...choices[i]!, '--', '.'], onHit, signal, (f) => {
        current = f;
        if (paused) f.pause();
      });
    } catch (e) {
      if (!(e instanceof RipgrepPatternError) || i + 1 >= choices.length) throw e;
    }
  }
}

async function rgSearchOnce(
  rg: string,
  cwd: string,
  args: string[],
  onHit: (hit: RgHit) => boolean | void,
  signal: AbortSignal | undefined,
  onStart: (flow: FlowControl) => void,
): Promise<FileProblem[]> {
  const problems: FileProblem[] = [];
  const res = await runRg(rg, cwd, args, {
    sep: 10,
    signal,
    onStart,
    onRecord: (l) => {
      // Records without a NUL are rg's notes on stdout ("…: WARNING: stopped searching binary file").
      const nul = l.indexOf('\0');
      if (nul < 0) return;
      const colon = l.indexOf(':', nul + 1);
      if (colon < 0) return;
      let text = l.slice(colon + 1);
      if (text.endsWith('\r')) text = text.slice(0, -1);
      return onHit({ relPath: stripDot(l.slice(0, nul)), line: Number(l.slice(nul + 1, colon)) - 1, text });
    },
    onOverlong: (head, bytes) => {
      const nul = head.indexOf('\0');
      const colon = nul < 0 ? -1 : head.indexOf(':', nul + 1);
      const where = colon < 0 ? 'a matching line' : `matching line ${head.slice(nul + 1, colon)}`;
      problems.push({
        relPath: stripDot(head.slice(0, Math.max(0, nul))),
        message: `${where} is ${bytes} bytes long, over the limit of ${limits().maxLineBytes} bytes (idea.server.limits.maxLineBytes)`,
      });
    },
  });
  if (res.stopped) return problems;
  const msgs = parseRgMessages(res.stderr);
  // rg: 0 = matches, 1 = none, 2 = some error (a bad pattern, a bad glob, or files it could not search).
  if (
    res.code === 2 &&
    msgs.files.length + msgs.vanished === 0 &&
    msgs.general.some((m) => /regex|pcre2|pattern|literal/i.test(m) && !/glob/i.test(m))
  ) {
    throw new RipgrepPatternError(msgs.general.join('; '));
  }
  throwGeneral(msgs.general, msgs.files.length + msgs.vanished > 0 && res.code === 2 ? 0 : res.code);
  return [...problems, ...msgs.files];
}

/**
 * Every file rg would search under `cwd` with this selection, as "/"-separated paths relative to cwd.
 * Resolves with what rg could not list (unreadable directories); INVALID_REQUEST for a malformed glob.
 */
export async function rgListFiles(
  rg: string,
  cwd: string,
  sel: FileSelection,
  onFile: (relPath: string) => boolean | void,
  signal?: AbortSignal,
): Promise<FileProblem[]> {
  const res = await runRg(rg, cwd, [...selectionArgs(sel), '--files', '--null', '--', '.'], {
    sep: 0,
    signal,
    onRecord: (p) => {
      if (p && onFile(stripDot(p)) === false) return false;
    },
    onOverlong: () => undefined, // a path is never that long
  });
  if (res.stopped) return [];
  const msgs = parseRgMessages(res.stderr);
  throwGeneral(msgs.general, msgs.files.length + msgs.vanished > 0 && res.code === 2 ? 0 : res.code);
  return msgs.files;
}

function stripDot(p: string): string {
  return p.startsWith('./') ? p.slice(2) : p;
}
