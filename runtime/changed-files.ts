// The files an agent just changed, as git sees them: modified, added (staged or not), renamed (the new
// name) and untracked ones of the repository around a folder — the "write, then learn what broke" loop
// of `idea diag list --changed` and idea-mcp's diag_changed tool. A client feature, not a protocol
// param: it works against every server version (v0.1.6 windows included), and an IDEA client runs on
// the server's machine with the same file system (the protocol is loopback only).
//
// git runs disarmed (git-disarm.ts). `git status` reads the working tree, and git would run the
// repository's clean/process filters on files whose stat data it cannot trust: every filter driver the
// repository's configuration defines (includes followed) is switched off on the command line, which
// beats every config file. Reading that configuration runs nothing.
import { execFile } from 'node:child_process';
import { isAbsolute, join } from 'node:path';
import { DISARMING_ARGS, disarmedEnv } from './git-disarm.js';
import { findProgram, programEnv } from './programs.js';

export interface ChangedFiles {
  /** The repository's top level (as git reports it). */
  root: string;
  /** Absolute paths, sorted; deleted files are not among them (there is nothing to diagnose). */
  files: string[];
}

export class ChangedFilesError extends Error {
  override readonly name = 'ChangedFilesError';
}

const MAX_OUTPUT = 64 * 1024 * 1024;

function run(git: string, cwd: string, args: readonly string[], timeoutMs: number, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      git,
      ['--no-pager', ...DISARMING_ARGS, ...args],
      { cwd, env: programEnv(disarmedEnv()), maxBuffer: MAX_OUTPUT, timeout: timeoutMs, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const why = (stderr || err.message).trim().split('\n')[0];
        reject(new ChangedFilesError(`git ${what} in ${cwd}: ${why}`));
      },
    );
  });
}

/** `-c filter.<name>.clean= -c filter.<name>.smudge= -c filter.<name>.process=` for every driver configured. */
export function filterOverrides(configListing: string): string[] {
  const names = new Set<string>();
  // `git config -z --get-regexp`: records "key\nvalue\0"; the key is filter.<name>.<var> (name may hold dots).
  for (const record of configListing.split('\0')) {
    const key = record.split('\n', 1)[0]!;
    const m = /^filter\.(.+)\.[^.]+$/i.exec(key);
    if (m) names.add(m[1]!);
  }
  return [...names].flatMap((n) =>
    ['clean', 'smudge', 'process']
      .flatMap((v) => ['-c', `filter.${n}.${v}=`])
      .concat(['-c', `filter.${n}.required=false`]),
  );
}

/** Paths of `git status --porcelain=v1 -z` that exist after the change, relative to the top level. */
export function parseStatus(out: string): string[] {
  const files: string[] = [];
  const records = out.split('\0');
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    if (r.length < 4) continue;
    const [x, y] = [r[0]!, r[1]!];
    const path = r.slice(3);
    if (x === 'R' || x === 'C') i++; // the next record is the original name
    if (x === 'D' || y === 'D') continue; // gone from the working tree
    if (x === '!') continue;
    files.push(path);
  }
  return files;
}

/**
 * The changed files of the repository holding `dir` (rejects with ChangedFilesError outside one).
 * `git` defaults to the program found in PATH's absolute folders (never relative to the workspace).
 */
export async function changedFiles(dir: string, o: { git?: string; timeoutMs?: number } = {}): Promise<ChangedFiles> {
  const git = o.git ?? findProgram('git');
  const timeoutMs = o.timeoutMs ?? 30_000;
  const root = (await run(git, dir, ['rev-parse', '--show-toplevel'], timeoutMs, 'rev-parse')).trim();
  if (!isAbsolute(root)) throw new ChangedFilesError(`git gave no top level for ${dir}`);
  // Exit 1 with no output: no filter configured.
  const listing = await run(git, root, ['config', '-z', '--get-regexp', '^filter\\.'], timeoutMs, 'config').catch(
    () => '',
  );
  const status = await run(
    git,
    root,
    [
      ...filterOverrides(listing),
      'status',
      '--porcelain=v1',
      '-z',
      '--untracked-files=all',
      '--no-renames',
      '--ignore-submodules=all', // a submodule's own filters are not among those switched off
    ],
    timeoutMs,
    'status',
  );
  const files = [...new Set(parseStatus(status))].map((p) => join(root, p)).sort();
  return { root, files };
}

/**
 * Where a client offers `changed` (CLI `--changed`, MCP `changed: true`): the topic, the file-list param
 * it fills, and the answer when git reports nothing changed (the topic would otherwise read an omitted
 * list as "every file the server knows", the opposite of what was asked).
 */
export const CHANGED_FILES_PARAM = {
  name: 'changed',
  topic: '/app/vscode/diag/list',
  fills: 'filePath',
  description:
    'Instead of filePath: the files git reports as modified, added or untracked in the repository around the working folder (found by the client, git disarmed; deleted files left out). Nothing changed: an empty answer.',
  emptyResult: { diagnostics: [], totalCount: 0 },
} as const;

/**
 * `params` with `changed: true` replaced by the changed files of the repository around `cwd`; undefined
 * when nothing changed (answer CHANGED_FILES_PARAM.emptyResult without asking). `changed` with the
 * file list given too is refused (ChangedFilesError): the two say different things.
 */
export async function withChangedFiles(
  params: Record<string, unknown>,
  cwd: string,
  o: { git?: string; timeoutMs?: number } = {},
): Promise<{ params: Record<string, unknown>; changed?: ChangedFiles } | undefined> {
  const { [CHANGED_FILES_PARAM.name]: changed, ...rest } = params;
  if (changed === undefined || changed === false) return { params: rest };
  if (changed !== true)
    throw new ChangedFilesError(`${CHANGED_FILES_PARAM.name} is true or false, got ${JSON.stringify(changed)}`);
  if (rest[CHANGED_FILES_PARAM.fills] !== undefined)
    throw new ChangedFilesError(`give ${CHANGED_FILES_PARAM.name} or ${CHANGED_FILES_PARAM.fills}, not both`);
  const found = await changedFiles(cwd, o);
  if (found.files.length === 0) return undefined;
  return { params: { ...rest, [CHANGED_FILES_PARAM.fills]: found.files }, changed: found };
}
