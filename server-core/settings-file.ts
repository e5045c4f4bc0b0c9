// Writes the bound port and the token into a workspace's .vscode/settings.json, which is how IDEA
// clients find the server. The file is JSON with comments: existing values are replaced in place and
// new keys inserted after the opening brace, so the user's other keys, comments and layout survive.
// (VS Code's configuration API cannot do it: authToken is machine-scoped, so a workspace target is refused.)
// The file carries a secret: it is written 0600 (a stricter mode is kept), and, when the folder is a
// git repository that does not track it, listed in .git/info/exclude so that `git add .` cannot commit
// the token.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { DISCOVERY_KEYS, workspaceSettingsFile } from '../runtime/discovery';
import { parseJsonc } from '../runtime/jsonc';
import { git } from './git';
import { escapeRegExp } from './search/regex-core';

type Value = string | number | boolean;

/** Returns `text` with the given top-level keys set; throws if `text` is not a JSON(C) object. */
export function setSettingsKeys(text: string, values: Record<string, Value>): string {
  if (text.trim() === '') return `${JSON.stringify(values, null, 2)}\n`;
  const parsed = parseJsonc(text);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error('settings.json is not a JSON object');
  let out = text;
  const missing: [string, Value][] = [];
  for (const [key, value] of Object.entries(values)) {
    const re = new RegExp(
      `("${escapeRegExp(key)}"\\s*:\\s*)("(?:[^"\\\\]|\\\\.)*"|-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?|true|false|null)`,
    );
    if (key in (parsed as object) && re.test(out))
      out = out.replace(re, (_m, head: string) => head + JSON.stringify(value));
    else missing.push([key, value]);
  }
  if (missing.length > 0) {
    const brace = out.indexOf('{');
    const isEmpty = Object.keys(parsed as object).length === 0 && !/[^\s{}]/.test(stripComments(out));
    const lines = missing.map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
    const insert = isEmpty ? `\n${lines.join(',\n')}\n` : `\n${lines.join(',\n')},`;
    out = out.slice(0, brace + 1) + insert + out.slice(brace + 1);
  }
  // Never write something that does not read back as intended; fall back to a plain rewrite.
  try {
    const check = parseJsonc(out) as Record<string, unknown>;
    if (Object.entries(values).every(([k, v]) => check[k] === v)) return out;
  } catch {
    /* fall through */
  }
  return `${JSON.stringify({ ...(parsed as object), ...values }, null, 2)}\n`;
}

function stripComments(s: string): string {
  return s.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
}

/** Owner read/write at most: the mode the file gets (an existing stricter mode, e.g. 0400, is kept). */
function secretMode(existing: number | undefined): number {
  return existing === undefined ? 0o600 : existing & 0o600;
}

/** Updates (or creates) the settings file atomically, readable by its owner only. */
export function writeSettingsKeys(file: string, values: Record<string, Value>): void {
  const exists = existsSync(file);
  const before = exists ? readFileSync(file, 'utf8') : '';
  const mode = secretMode(exists ? statSync(file).mode & 0o777 : undefined);
  const after = setSettingsKeys(before, values);
  if (after === before) {
    if (exists && (statSync(file).mode & 0o777) !== mode) chmodSync(file, mode);
    return;
  }
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, after, { mode });
  chmodSync(tmp, mode); // the umask may have narrowed it further; never wider
  renameSync(tmp, file);
}

export type GitExcludeOutcome = 'not-a-repository' | 'already-ignored' | 'tracked' | 'added';

/**
 * Keeps `file` out of commits: adds it to the repository's info/exclude unless git already ignores it.
 * A file git already tracks cannot be excluded (the caller warns: its token shows in `git diff`).
 */
export async function keepOutOfGit(file: string): Promise<GitExcludeOutcome> {
  const dir = dirname(file);
  let top: string;
  try {
    top = (await git(dir, ['rev-parse', '--show-toplevel'])).toString('utf8').trim();
  } catch {
    return 'not-a-repository';
  }
  const rel = relative(top, file).split(sep).join('/');
  if (rel.startsWith('../') || isAbsolute(rel)) return 'not-a-repository';
  const tracked = await git(top, ['ls-files', '--error-unmatch', '--', rel]).then(
    () => true,
    () => false,
  );
  if (tracked) return 'tracked';
  // check-ignore refuses literal pathspecs (the wrapper's default); rel is our own fixed path.
  const ignored = await git(top, ['--no-literal-pathspecs', 'check-ignore', '-q', '--', rel]).then(
    () => true,
    () => false,
  );
  if (ignored) return 'already-ignored';
  const excludeFile = resolve(
    top,
    (await git(top, ['rev-parse', '--git-path', 'info/exclude'])).toString('utf8').trim(),
  );
  const existing = await readFile(excludeFile, 'utf8').catch(() => '');
  mkdirSync(dirname(excludeFile), { recursive: true });
  const line = `/${rel.replace(/([*?[\\!#])/g, '\\$1')}`;
  await appendFile(
    excludeFile,
    `${existing === '' || existing.endsWith('\n') ? '' : '\n'}# written by the IDEA extension: this file holds its token\n${line}\n`,
  );
  return 'added';
}

/**
 * How existing IDEA clients find a server: the bound port (and the token, when `token` is given) in
 * `folder`/.vscode/settings.json; a file holding the token is kept out of git. A failure is logged,
 * never thrown: serving goes on, clients can still use the registry.
 */
export function exposeConnection(
  folder: string,
  port: number,
  token: string | undefined,
  log: (m: string) => void,
): void {
  const values: Record<string, string | number> = { [DISCOVERY_KEYS.port]: port };
  if (token !== undefined) values[DISCOVERY_KEYS.token] = token;
  const file = workspaceSettingsFile(folder);
  try {
    writeSettingsKeys(file, values);
  } catch (e) {
    log(`could not write ${file}: ${(e as Error).message}`);
    return;
  }
  if (token === undefined) return;
  void keepOutOfGit(file).then(
    (outcome) => {
      if (outcome === 'added') log(`listed ${file} in the repository's info/exclude (it holds the token)`);
      if (outcome === 'tracked') {
        log(
          `WARNING: ${file} is tracked by git, so the token written there shows in git diff and may be committed; stop writing the token (idea.server.exposeToken false / no --write-settings) or stop tracking the file`,
        );
      }
    },
    (e: Error) => log(`could not keep ${file} out of git: ${e.message}`),
  );
}
