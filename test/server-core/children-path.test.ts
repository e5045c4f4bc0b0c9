// server-core's children (server-core/spawn, git, rg) never run a program a relative PATH entry finds
// in the workspace they run in (runtime/programs.ts), even when this process's PATH starts with
// "node_modules/.bin" and the workspace holds a trap of that name; each child's PATH keeps only
// absolute folders; rg runs without RIPGREP_CONFIG_PATH.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { absolutePathFolders } from '../../runtime/programs';
import { git } from '../../server-core/git';
import { rgListFiles } from '../../server-core/search/ripgrep';
import { execProcess } from '../../server-core/spawn/processes';
import { useTestSpawner } from './spawn/spawner-build';

// git and rg run through the spawner process, as in the servers.
useTestSpawner();

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'idea-children-path-')));
/** The workspace: a trap `tool`, `git` and `rg` wherever a relative PATH entry would look. */
const ws = join(tmp, 'ws');
/** Where a trap that ran leaves its mark (outside the workspace). */
const marker = join(tmp, 'trap-ran');
/** An honest folder of PATH, absolute. */
const good = join(tmp, 'good-bin');

function executable(path: string, text: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
}
const trap = (name: string) => `#!/bin/sh\necho "${name} $0" >> '${marker}'\necho trap\n`;
for (const dir of ['.', 'bin', 'node_modules/.bin'])
  for (const name of ['tool', 'git', 'rg']) executable(join(ws, dir, name), trap(name));
executable(join(good, 'tool'), '#!/bin/sh\necho good\n');

const savedPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = savedPath;
  delete process.env.RIPGREP_CONFIG_PATH;
  rmSync(marker, { force: true }); // one test's trap must not fail the next
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('with PATH starting with relative entries', () => {
  it('a bare name is found in absolute folders only; the child sees no relative PATH entry', async () => {
    process.env.PATH = `node_modules/.bin:.:bin:${good}:${savedPath}`;
    const out = await execProcess({ file: 'tool', args: [], cwd: ws }, { maxBuffer: 1 << 16 });
    expect(out.stdout.toString()).toBe('good\n');
    const env = await execProcess({ file: 'sh', args: ['-c', 'echo "$PATH"'], cwd: ws }, { maxBuffer: 1 << 16 });
    expect(env.stdout.toString().trim().split(':')).toEqual([good, ...absolutePathFolders({ PATH: savedPath })]);
    process.env.PATH = `node_modules/.bin:.:bin`;
    await expect(execProcess({ file: 'tool', args: [], cwd: ws }, { maxBuffer: 1 << 16 })).rejects.toThrow(
      /tool was not found in PATH's absolute folders/,
    );
    await expect(execProcess({ file: 'bin/tool', args: [], cwd: ws }, { maxBuffer: 1 << 16 })).rejects.toThrow(
      /bin\/tool is a relative path/,
    );
    expect(existsSync(marker), readIfThere(marker)).toBe(false);
  });

  it("git is PATH's real git, not the workspace's node_modules/.bin/git", async () => {
    process.env.PATH = `node_modules/.bin:.:bin:${savedPath}`;
    expect((await git(ws, ['version'])).toString()).toMatch(/^git version \d/);
    expect(existsSync(marker), readIfThere(marker)).toBe(false);
    // The trap is live: a child that resolved `git` the way exec does, from the workspace, runs it.
    const viaShell = await execProcess(
      { file: 'sh', args: ['-c', 'PATH=node_modules/.bin; git version'], cwd: ws },
      { maxBuffer: 1 << 16 },
    );
    expect(viaShell.stdout.toString()).toBe('trap\n');
    rmSync(marker);
  });

  it('rg runs without RIPGREP_CONFIG_PATH and with absolute PATH folders only', async () => {
    const seen = join(tmp, 'rg-env');
    const fakeRg = executable(join(tmp, 'fake-rg', 'rg'), `#!/bin/sh\n/usr/bin/env > '${seen}'\n`);
    process.env.RIPGREP_CONFIG_PATH = join(ws, '.ripgreprc');
    process.env.PATH = `node_modules/.bin:${good}`;
    await rgListFiles(fakeRg, ws, { excludes: [], useIgnoreFiles: true }, () => undefined);
    const env = readFileSync(seen, 'utf8').split('\n');
    expect(env.filter((l) => l.startsWith('RIPGREP_CONFIG_PATH='))).toEqual([]);
    expect(env.filter((l) => l.startsWith('PATH='))).toEqual([`PATH=${good}`]);
    expect(existsSync(marker), readIfThere(marker)).toBe(false);
  });
});

function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
