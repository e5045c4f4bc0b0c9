// The desktop backend's decisions: which backend, the fallback and its one-line reason, the command
// line. The download is tried for real: where VS Code's servers are unreachable (here) auto must fall
// back to code-server quickly and say why in one line; where they are reachable it yields the executable.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  chooseBackend,
  desktopArgs,
  desktopCommand,
  desktopDownloader,
  requestedBackend,
} from '../../livehost/desktop';
import { hostBuild } from '../../livehost/hosts';

const build = hostBuild('oldest');
const never = () => Promise.reject(new Error('must not be called'));

describe('backend choice', () => {
  it('IDEA_HOST picks electron, code-server or auto; default code-server', () => {
    expect(requestedBackend({})).toBe('code-server');
    expect(requestedBackend({ IDEA_HOST: 'auto' })).toBe('auto');
    expect(requestedBackend({ IDEA_HOST: 'electron' })).toBe('electron');
    expect(() => requestedBackend({ IDEA_HOST: 'desktop' })).toThrow(
      /IDEA_HOST=desktop is not one of code-server, electron, auto/,
    );
  });

  it('code-server never downloads', async () => {
    expect(await chooseBackend('code-server', build, never)).toEqual({ backend: 'code-server' });
  });

  it('auto falls back to code-server with a one-line reason; electron fails with it', async () => {
    const offline = () => Promise.reject(new Error('getaddrinfo ENOTFOUND the-update-server\n    at stack'));
    const auto = await chooseBackend('auto', build, offline);
    expect(auto.backend).toBe('code-server');
    expect(auto.fallback).toBe(
      `desktop VS Code ${build.vscode} could not be downloaded (getaddrinfo ENOTFOUND the-update-server); using code-server ${build.codeServer}`,
    );
    await expect(chooseBackend('electron', build, offline)).rejects.toThrow(
      /could not be downloaded \(getaddrinfo ENOTFOUND the-update-server\); use --host code-server or auto$/,
    );
    expect(await chooseBackend('auto', build, () => Promise.resolve('/x/code'))).toEqual({
      backend: 'electron',
      executable: '/x/code',
    });
  });

  it("auto with test-electron's real download: the desktop build, or code-server with one line why", async () => {
    const t0 = performance.now();
    const c = await chooseBackend(
      'auto',
      build,
      desktopDownloader(
        build,
        { ...process.env, IDEA_KIT_CACHE: process.env.IDEA_KIT_CACHE ?? `${process.env.HOME}/.cache/idea-kit` },
        10_000,
      ),
    );
    if (c.backend === 'electron') expect(existsSync(c.executable!)).toBe(true);
    else {
      expect(c.fallback).toMatch(
        new RegExp(
          `^desktop VS Code ${build.vscode.replace(/\./g, '\\.')} could not be downloaded \\(.+\\); using code-server`,
        ),
      );
      expect(c.fallback).not.toContain('\n');
      console.log(`[desktop] ${c.fallback} after ${Math.round(performance.now() - t0)} ms`);
    }
  }, 120_000);
});

describe('desktop command line', () => {
  const args = desktopArgs({ workspace: '/w', userDataDir: '/u', extensionsDir: '/e' });
  it('isolates profile and extensions, switches off updates, telemetry, trust prompts; workspace last', () => {
    expect(args).toEqual(
      expect.arrayContaining([
        '--user-data-dir=/u',
        '--extensions-dir=/e',
        '--disable-updates',
        '--disable-telemetry',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--no-sandbox',
      ]),
    );
    expect(args.at(-1)).toBe('/w');
  });

  it('runs under xvfb-run without a display on Linux, directly otherwise, and says what is missing', () => {
    expect(desktopCommand('/c', args, { DISPLAY: ':0' }, 'linux', () => true)).toEqual({ command: '/c', args });
    expect(desktopCommand('/c', args, {}, 'linux', () => true)).toEqual({
      command: 'xvfb-run',
      args: ['-a', '/c', ...args],
    });
    expect(desktopCommand('/c', args, {}, 'darwin', () => false)).toEqual({ command: '/c', args });
    expect(() => desktopCommand('/c', args, {}, 'linux', () => false)).toThrow(
      /needs a display: set DISPLAY or install xvfb/,
    );
  });
});
