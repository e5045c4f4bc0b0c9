// Where the launcher finds code-server and where it puts per-run folders.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { type HostBuild, hostNodeBinDir, selectedHost } from './hosts';

/** Root of this repository (livehost/ sits directly below it). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.IDEA_KIT_CACHE || join(homedir(), '.cache', 'idea-kit');
}

/** Parent of the run folders: `${IDEA_KIT_RUNS:-<repo>/.runs}` (gitignored). */
export function runsRoot(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.IDEA_KIT_RUNS || join(REPO_ROOT, '.runs'));
}

/**
 * The code-server executable of `build` (default: the IDEA_VSCODE one): `IDEA_CODE_SERVER`, else the one
 * scripts/install-host.sh puts in the cache.
 */
export function findCodeServer(env: NodeJS.ProcessEnv = process.env, build: HostBuild = selectedHost(env)): string {
  const bin =
    env.IDEA_CODE_SERVER ||
    join(cacheDir(env), `code-server-${build.codeServer}`, 'node_modules', '.bin', 'code-server');
  if (!existsSync(bin)) {
    throw new Error(
      `code-server not found at ${bin}: run \`bash scripts/install-host.sh\` ` +
        '(or set IDEA_CODE_SERVER to a code-server executable)',
    );
  }
  return bin;
}

/** PATH for code-server of `build`: its Node first when that is not this process's (code-server's bin is `#!/usr/bin/env node`). */
export function codeServerPath(build: HostBuild, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = hostNodeBinDir(build, cacheDir(env));
  if (!dir) return undefined;
  if (!existsSync(join(dir, 'node')))
    throw new Error(
      `Node ${build.node} for code-server ${build.codeServer} not found in ${dir}: run \`bash scripts/install-host.sh\``,
    );
  return `${dir}:${env.PATH ?? ''}`;
}

/** Debian's headless-capable Chromium (installed by scripts/install-host.sh); `IDEA_CHROMIUM` overrides. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string {
  const bin = env.IDEA_CHROMIUM || '/usr/bin/chromium';
  if (!existsSync(bin)) throw new Error(`Chromium not found at ${bin}: run \`bash scripts/install-host.sh\``);
  return bin;
}
