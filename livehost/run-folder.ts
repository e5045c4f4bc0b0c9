// The per-run folder: everything one live host writes (profile, extensions, HOME, TMPDIR, browser profile,
// logs) stays inside it, so runs never share state and teardown can delete it in one go.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
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
}

export function createRunFolder(root = runsRoot()): RunFolder {
  const id = `${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}-${process.pid}-${randomBytes(3).toString('hex')}`;
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
  };
  for (const d of [f.userDataDir, f.extensionsDir, f.home, f.tmp, f.chromeProfile]) mkdirSync(d, { recursive: true });
  // code-server writes a default config (with a password) when none exists; ours only states what we pass anyway.
  writeFileSync(f.configFile, 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n');
  return f;
}

export function removeRunFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
}

/** HOME, XDG_* and TMPDIR inside the run folder, so nothing leaks into the real home or /tmp. */
export function isolatedEnv(f: RunFolder): Record<string, string> {
  return {
    HOME: f.home,
    XDG_CONFIG_HOME: join(f.home, '.config'),
    XDG_DATA_HOME: join(f.home, '.local', 'share'),
    XDG_CACHE_HOME: join(f.home, '.cache'),
    XDG_STATE_HOME: join(f.home, '.local', 'state'),
    TMPDIR: f.tmp,
  };
}
