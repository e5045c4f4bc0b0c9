// Which ripgrep idea-server searches with, said in its log: `rg` in PATH's absolute folders first (the
// user's choice), else the one a VS Code install ships (desktop, remote server, code-server), else none,
// and the core's JavaScript search runs instead (same semantics, slower on large trees).
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findProgramOrUndefined } from '../../runtime/programs';
import { bundledRipgrep } from '../../server-core/search/ripgrep';

export interface RipgrepChoice {
  path: string | null;
  /** For the log: "PATH", "VS Code at <root>", or "none: the JavaScript search". */
  source: string;
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `rg` in PATH's absolute folders (runtime/programs.ts: a relative entry would mean the workspace). */
export function ripgrepOnPath(env: NodeJS.ProcessEnv, platform = process.platform): string | undefined {
  return findProgramOrUndefined('rg', env, platform);
}

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir)
      .sort()
      .reverse() // newest version-named folder first
      .map((n) => join(dir, n));
  } catch {
    return [];
  }
}

/** Where VS Code installs keep their app folder (the one holding node_modules/@vscode/ripgrep*). */
export function vscodeAppRoots(home: string, platform = process.platform): string[] {
  const roots = [
    ...subfolders(join(home, '.vscode-server', 'bin')),
    // idea-kit's own code-server builds (livehost/): VS Code too.
    ...subfolders(join(home, '.vscode-server', 'cli', 'servers')).map((s) => join(s, 'server')),
    ...subfolders(join(home, '.cache', 'idea-kit'))
      .filter((d) => /code-server-/.test(d))
      .map((d) => join(d, 'node_modules', 'code-server', 'lib', 'vscode')),
  ];
  if (platform === 'darwin')
    roots.push(
      '/Applications/Visual Studio Code.app/Contents/Resources/app',
      join(home, 'Applications/Visual Studio Code.app/Contents/Resources/app'),
    );
  else if (platform === 'linux')
    roots.push(
      '/usr/share/code/resources/app',
      '/usr/lib/code/resources/app',
      '/opt/visual-studio-code/resources/app',
      '/snap/code/current/usr/share/code/resources/app',
    );
  return roots;
}

/** ripgrep in a VS Code app folder, by the core's one list of places (old and new layouts). */
function ripgrepInAppRoot(appRoot: string, platform: string, arch: string): string | undefined {
  const p = bundledRipgrep(appRoot, platform, arch);
  return p !== undefined && isExecutable(p) ? p : undefined;
}

export function chooseRipgrep(
  env: NodeJS.ProcessEnv,
  home: string,
  platform = process.platform,
  arch = process.arch,
): RipgrepChoice {
  const onPath = ripgrepOnPath(env, platform);
  if (onPath) return { path: onPath, source: 'PATH' };
  for (const root of vscodeAppRoots(home, platform)) {
    const p = ripgrepInAppRoot(root, platform, arch);
    if (p) return { path: p, source: `VS Code at ${root}` };
  }
  return { path: null, source: 'none: the JavaScript search' };
}
