// The workspace settings idea-server honours, read from <workspace>/.vscode/settings.json (JSON with
// comments, runtime/jsonc.ts): `files.exclude` and `search.exclude`, merged over VS Code's defaults as
// VS Code merges object settings (a workspace `"**/.git": false` turns a default off), plus
// `search.useIgnoreFiles` and `workbench.localHistory.enabled` / `.maxFileSize`. Only these keys are
// read: the token and the limits are machine-scoped in the extension (a workspace must not pick
// them), so idea-server takes them from its command line and environment, never from this file.
// Nothing read here names a program or a path to load code from, and nothing may: the file belongs to
// whoever wrote the repository. `typescript.tsdk`, `typescript.tsserver.pluginPaths`, `git.path`,
// `search.ripgrep.*` and every other `*.path` are ignored; what runs is idea-server's choice alone
// (runtime/programs.ts).
// The file is hostile input: bounded in size, malformed or odd-shaped values ignored, never thrown.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { workspaceSettingsFile } from '../../runtime/discovery';
import { parseJsonc } from '../../runtime/jsonc';

/** glob → true | false | { when } (VS Code's shape; `when` kept for whoever can use it). */
export type ExcludeSetting = Record<string, boolean | { when: string }>;

export interface WorkspaceSettings {
  filesExclude: ExcludeSetting;
  searchExclude: ExcludeSetting;
  /** `search.useIgnoreFiles` (default true). */
  useIgnoreFiles: boolean;
  /** `workbench.localHistory.enabled` (default true) and `.maxFileSize` in KB (default 256). */
  localHistory: { enabled: boolean; maxFileSizeKb: number };
  /** Why the file was not used, when it exists but could not be (for the log). */
  problem?: string;
}

/** VS Code's defaults (files.exclude, search.exclude), as in its configuration registry. */
export const DEFAULT_FILES_EXCLUDE: Readonly<ExcludeSetting> = {
  '**/.git': true,
  '**/.svn': true,
  '**/.hg': true,
  '**/.DS_Store': true,
  '**/Thumbs.db': true,
};
export const DEFAULT_SEARCH_EXCLUDE: Readonly<ExcludeSetting> = {
  '**/node_modules': true,
  '**/bower_components': true,
  '**/*.code-search': true,
};

/** VS Code's `workbench.localHistory.maxFileSize` default, in KB. */
export const DEFAULT_HISTORY_MAX_KB = 256;

/** Larger settings files are not read (a settings file is a few kB; this one is someone's trap). */
export const MAX_SETTINGS_BYTES = 1024 * 1024;

/** Valid entries of an exclude object; anything else (arrays, numbers, empty globs) is dropped. */
export function excludeEntries(v: unknown): ExcludeSetting {
  const out: ExcludeSetting = {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return out;
  for (const [glob, on] of Object.entries(v as Record<string, unknown>)) {
    if (glob === '' || glob.includes('\0')) continue;
    if (typeof on === 'boolean') out[glob] = on;
    else if (typeof on === 'object' && on !== null && typeof (on as { when?: unknown }).when === 'string')
      out[glob] = { when: (on as { when: string }).when };
  }
  return out;
}

/** The settings of a settings file's text (undefined text: no file). */
export function settingsFromText(text: string | undefined): WorkspaceSettings {
  const defaults = (): WorkspaceSettings => ({
    filesExclude: { ...DEFAULT_FILES_EXCLUDE },
    searchExclude: { ...DEFAULT_SEARCH_EXCLUDE },
    useIgnoreFiles: true,
    localHistory: { enabled: true, maxFileSizeKb: DEFAULT_HISTORY_MAX_KB },
  });
  if (text === undefined) return defaults();
  let v: unknown;
  try {
    v = parseJsonc(text);
  } catch (e) {
    return { ...defaults(), problem: `not JSON with comments (${(e as Error).message})` };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ...defaults(), problem: 'not a JSON object' };
  const s = v as Record<string, unknown>;
  const bool = (key: string, fallback: boolean) => (typeof s[key] === 'boolean' ? (s[key] as boolean) : fallback);
  const kb = s['workbench.localHistory.maxFileSize'];
  return {
    filesExclude: { ...DEFAULT_FILES_EXCLUDE, ...excludeEntries(s['files.exclude']) },
    searchExclude: { ...DEFAULT_SEARCH_EXCLUDE, ...excludeEntries(s['search.exclude']) },
    useIgnoreFiles: bool('search.useIgnoreFiles', true),
    localHistory: {
      enabled: bool('workbench.localHistory.enabled', true),
      maxFileSizeKb: typeof kb === 'number' && Number.isFinite(kb) && kb >= 0 ? Math.floor(kb) : DEFAULT_HISTORY_MAX_KB,
    },
  };
}

/** Reads <workspace>/.vscode/settings.json (a missing file is VS Code's defaults). Never throws. */
export function readWorkspaceSettings(workspace: string): WorkspaceSettings {
  const file = workspaceSettingsFile(workspace);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const out = settingsFromText(undefined);
    return code === 'ENOENT' || code === 'ENOTDIR' ? out : { ...out, problem: (e as Error).message };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ...settingsFromText(undefined), problem: `${file} is not a regular file` };
    if (st.size > MAX_SETTINGS_BYTES)
      return { ...settingsFromText(undefined), problem: `${file} is larger than ${MAX_SETTINGS_BYTES} bytes` };
    const buf = Buffer.alloc(st.size);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return settingsFromText(buf.subarray(0, got).toString('utf8'));
  } catch (e) {
    return { ...settingsFromText(undefined), problem: (e as Error).message };
  } finally {
    closeSync(fd);
  }
}

/** Globs switched on unconditionally in either setting: what a search leaves out (`when` clauses cannot be applied by rg). */
export function searchExcludeGlobs(s: WorkspaceSettings): string[] {
  const out = new Set<string>();
  for (const set of [s.filesExclude, s.searchExclude])
    for (const [glob, on] of Object.entries(set)) if (on === true) out.add(glob);
  return [...out];
}
