// The per-run folder: everything one live host writes (profile, extensions, HOME, TMPDIR, browser profile,
// logs) stays inside it, so runs never share state and teardown can delete it in one go.

import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runsRoot } from './paths';

export interface RunFolder {
  id: string;
  dir: string;
  userDataDir: string;
  extensionsDir: string;
  home: string;
  tmp: string;
  chromeProfile: string;
  codeServerLog: string;
  configFile: string;
  /** TMPDIR given to code-server: `tmp`, or a short symlink to it (see shortTmpDir). */
  tmpForHost: string;
}

// VS Code puts unix sockets in TMPDIR (vscode-ipc-<uuid>.sock, 52 characters); a socket path is limited to
// 107 bytes, so a deep run folder would break the extension host's IPC and git's askpass.
const MAX_TMPDIR_LENGTH = 107 - 1 - 'vscode-ipc-00000000-0000-0000-0000-000000000000.sock'.length;

function shortTmpDir(id: string, tmp: string): string {
  if (tmp.length <= MAX_TMPDIR_LENGTH) return tmp;
  const link = join(tmpdir().length < 20 ? tmpdir() : '/tmp', `idea-kit-${id.slice(-6)}`);
  rmSync(link, { force: true });
  symlinkSync(tmp, link, 'dir');
  return link;
}

export function createRunFolder(root = runsRoot()): RunFolder {
  const id = `${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}-${randomBytes(3).toString('hex')}`;
  const dir = join(root, id);
  const f: RunFolder = {
    id,
    dir,
    userDataDir: join(dir, 'udd'),
    extensionsDir: join(dir, 'exts'),
    home: join(dir, 'home'),
    tmp: join(dir, 'tmp'),
    chromeProfile: join(dir, 'chrome-profile'),
    codeServerLog: join(dir, 'code-server.log'),
    configFile: join(dir, 'config.yaml'),
    tmpForHost: '',
  };
  for (const d of [f.userDataDir, f.extensionsDir, f.home, f.tmp, f.chromeProfile]) mkdirSync(d, { recursive: true });
  f.tmpForHost = shortTmpDir(id, f.tmp);
  // code-server writes a default config (with a password) when none exists; ours only states what we pass anyway.
  writeFileSync(f.configFile, 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n');
  return f;
}

export function removeRunFolder(f: RunFolder): void {
  if (f.tmpForHost !== f.tmp) {
    try {
      unlinkSync(f.tmpForHost);
    } catch {
      /* already gone */
    }
  }
  rmSync(f.dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
}

/** HOME, XDG_* and TMPDIR inside the run folder, so nothing leaks into the real home or /tmp. */
/** The per-user registry of the isolated host. */
export function runRegistryDir(f: RunFolder): string {
  return join(f.home, '.idea-protocol', 'servers');
}

export function isolatedEnv(f: RunFolder): Record<string, string> {
  return {
    HOME: f.home,
    XDG_CONFIG_HOME: join(f.home, '.config'),
    XDG_DATA_HOME: join(f.home, '.local', 'share'),
    XDG_CACHE_HOME: join(f.home, '.cache'),
    XDG_STATE_HOME: join(f.home, '.local', 'state'),
    TMPDIR: f.tmpForHost,
    // The extension registers its server here (runtime/registry.ts), never in the real user's home.
    IDEA_REGISTRY_DIR: runRegistryDir(f),
  };
}
