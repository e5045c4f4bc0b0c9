// Which programs idea-kit runs (its servers, and the git its clients run) and how they are found
// (issue 30). The rule: only programs it ships or the user names, never one found relative to the
// workspace. Children run with cwd = the workspace, and exec resolves a bare name through the child's
// PATH after changing into that cwd: a relative PATH entry (".", "", "node_modules/.bin") then means
// "inside the workspace", i.e. a program a cloned repository chose. So every bare name is resolved
// here, in PATH's absolute folders only, and every child gets a PATH of absolute folders only
// (programEnv) so that whatever it starts in turn cannot find the workspace's programs either.
//
// Every place that starts a process or loads code, and what keeps it to the rule:
// - git in servers (server-core/git.ts; the extension's too): an absolute path found here once per
//   PATH, run disarmed (git-disarm.ts: no hook, filter, pager, helper or transport of the repository's).
// - git in clients (changed-files.ts: `idea … --changed`, idea-mcp's `changed` argument): the same
//   findProgram and programEnv, run disarmed.
// - rg (server-core/search/ripgrep.ts): the path the host chose (idea-server/src/ripgrep.ts: PATH's
//   absolute folders, else a VS Code install's; the extension: VS Code's own, else PATH's absolute
//   folders, else none), run with --no-config and without RIPGREP_CONFIG_PATH.
// - server-core starts both through server-core/spawn/ (processes.ts startProcess): a bare name is
//   resolved here, a relative path refused, the environment's PATH cut to its absolute folders, whether
//   the spawner process or this thread starts them.
// - the spawner process (server-core/spawn/spawner-client.ts): forks our own bundle (dist/spawner.cjs)
//   with this Node (process.execPath), cwd = the bundle's folder, no execArgv, no NODE_OPTIONS.
// - the regex worker threads (server-core/search/regex-pool.ts): our own bundle
//   (dist/regex-worker.cjs), with an empty environment.
// - language servers (idea-server/src/lsp/server-process.ts): typescript-language-server from
//   idea-server's own dependencies, run by this Node; `--lsp` commands as the user gave them, a bare
//   name resolved here, a relative path against idea-server's own cwd (never the workspace); no shell;
//   PATH cut as above.
// - tsserver, which typescript-language-server chooses: it would take the workspace's
//   node_modules/typescript (or .yarn/sdks, .vscode/pnpify) found walking up from the workspace, so
//   idea-server names its own (idea-server/src/lsp/config.ts) unless `--trust-workspace`; a tsconfig's
//   tsserver plugins are looked up beside that TypeScript only (no --allowLocalPluginLoads), typings
//   acquisition is off.
// - `idea --headless`, `idea-mcp --headless`: `import('@idea-kit/server')`, resolved from their own
//   install, then the same serveWorkspace.
// - workspace settings (idea-server/src/settings.ts) name no program and no path to load code from.
// - the extension starts no process of its own but git and rg above (VS Code's TypeScript is VS Code's,
//   under its workspace trust). For a move's import edits it loads, in its own process, the typescript
//   module VS Code ships (<appRoot>/extensions/node_modules/typescript: extension/src/file-renames.ts),
//   never the workspace's; a language service loads no tsserver plugin.
// - code actions run no command a workspace names: idea-server runs a language server's command only
//   through that server (workspace/executeCommand) and only when it announced it, the extension runs
//   none (H22).
import { accessSync, constants, statSync } from 'node:fs';
import { posix, win32 } from 'node:path';

/** Said with every program not found: where one was not looked for. */
export const RELATIVE_NEVER = 'relative PATH entries are never searched';

/** No absolute PATH folder holds the program. */
export class ProgramNotFoundError extends Error {
  override readonly name = 'ProgramNotFoundError';
  readonly code = 'ENOENT';
  constructor(
    readonly program: string,
    message: string,
  ) {
    super(message);
  }
}

const pathApi = (platform: NodeJS.Platform) => (platform === 'win32' ? win32 : posix);

/** The environment's PATH variable name ("Path" on Windows, where names are case-insensitive). */
function pathKey(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  if (platform !== 'win32') return 'PATH';
  return Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
}

/** PATH's absolute folders, in order; relative entries (".", "", "node_modules/.bin", "~/bin") are dropped. */
export function absolutePathFolders(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string[] {
  const { delimiter, isAbsolute } = pathApi(platform);
  return (env[pathKey(env, platform)] ?? '').split(delimiter).filter((dir) => dir !== '' && isAbsolute(dir));
}

function isExecutableFile(path: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A bare program name: no folder part (a path is resolved by resolveCommand, never searched). */
export function isBareName(name: string): boolean {
  return name !== '' && !/[/\\]/.test(name);
}

/**
 * The absolute path of the program `name` (a bare name): the first executable file of that name in
 * PATH's absolute folders (with PATHEXT's extensions on Windows). Throws ProgramNotFoundError.
 */
export function findProgram(name: string, env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (!isBareName(name) || name.includes('\0')) throw new Error(`"${name}" is not a bare program name`);
  const exts =
    platform === 'win32' && !/\.[^.]+$/.test(name)
      ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)]
      : [''];
  const { join } = pathApi(platform);
  const folders = absolutePathFolders(env, platform);
  for (const dir of folders)
    for (const ext of exts) {
      const p = join(dir, name + ext);
      if (isExecutableFile(p, platform)) return p;
    }
  throw new ProgramNotFoundError(
    name,
    `${name} was not found in PATH's absolute folders (${folders.length === 0 ? 'there are none' : `${folders.length} of them`}); ${RELATIVE_NEVER}`,
  );
}

/** findProgram, or undefined when no absolute PATH folder holds it. */
export function findProgramOrUndefined(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string | undefined {
  try {
    return findProgram(name, env, platform);
  } catch (e) {
    if (e instanceof ProgramNotFoundError) return undefined;
    throw e;
  }
}

/**
 * A command the user gave (`--lsp`): an absolute path as is; a relative path with a folder part
 * against `cwd` (the server's own working folder, never the workspace); a bare name by findProgram.
 */
export function resolveCommand(
  command: string,
  o: { env?: NodeJS.ProcessEnv; cwd?: string; platform?: NodeJS.Platform } = {},
): string {
  const platform = o.platform ?? process.platform;
  const { isAbsolute, resolve } = pathApi(platform);
  if (isAbsolute(command)) return command;
  if (!isBareName(command)) return resolve(o.cwd ?? process.cwd(), command);
  return findProgram(command, o.env ?? process.env, platform);
}

/**
 * The environment for a child: `env` as plain strings, its PATH cut to its absolute folders (and
 * removed when none is left: an empty PATH would mean the current folder to some exec implementations).
 */
export function programEnv(env: NodeJS.ProcessEnv = process.env, platform = process.platform): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (typeof v === 'string') out[k] = v;
  const key = pathKey(out, platform);
  if (out[key] === undefined) return out;
  const folders = absolutePathFolders(out, platform);
  if (folders.length === 0) delete out[key];
  else out[key] = folders.join(pathApi(platform).delimiter);
  return out;
}
