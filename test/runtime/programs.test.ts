// runtime/programs.ts: a bare program name is found in PATH's absolute folders only, never through a
// relative entry ("." , "", "node_modules/.bin"), which would mean the folder a child runs in (the
// workspace); a command the user typed resolves against the caller's own folder; every child's PATH
// keeps only absolute folders.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  absolutePathFolders,
  findProgram,
  findProgramOrUndefined,
  ProgramNotFoundError,
  programEnv,
  resolveCommand,
} from '../../runtime/programs';

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'idea-programs-')));
/** A workspace with a trap `tool` wherever a relative PATH entry would look. */
const ws = join(tmp, 'ws');
/** An honest folder of PATH, absolute. */
const good = join(tmp, 'good-bin');

function executable(path: string, text: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
}
for (const dir of ['.', 'bin', 'node_modules/.bin']) executable(join(ws, dir, 'tool'), '#!/bin/sh\necho trap\n');
executable(join(good, 'tool'), '#!/bin/sh\necho good\n');
writeFileSync(join(good, 'plain'), 'not executable\n');
mkdirSync(join(good, 'folder'));

const savedCwd = process.cwd();
afterEach(() => process.chdir(savedCwd));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const RELATIVE = ['.', '', 'bin', 'node_modules/.bin', './bin', '~/bin'];

describe('findProgram', () => {
  it('never searches a relative PATH entry, even from inside the folder that holds the program', () => {
    process.chdir(ws); // so that a relative entry, if searched, would find the trap
    const env = { PATH: RELATIVE.join(':') };
    expect(absolutePathFolders(env)).toEqual([]);
    expect(() => findProgram('tool', env)).toThrow(ProgramNotFoundError);
    expect(() => findProgram('tool', env)).toThrow(
      "tool was not found in PATH's absolute folders (there are none); relative PATH entries are never searched",
    );
    expect(findProgramOrUndefined('tool', env)).toBeUndefined();
    // The same folders, absolute, are searched: the check above can fail.
    expect(findProgram('tool', { PATH: join(ws, 'node_modules/.bin') })).toBe(join(ws, 'node_modules/.bin/tool'));
  });

  it('takes the first executable file in the absolute folders, in order', () => {
    const env = { PATH: [...RELATIVE, good, join(ws, 'bin')].join(':') };
    expect(absolutePathFolders(env)).toEqual([good, join(ws, 'bin')]);
    expect(findProgram('tool', env)).toBe(join(good, 'tool'));
    expect(findProgramOrUndefined('plain', env)).toBeUndefined(); // not executable
    expect(findProgramOrUndefined('folder', env)).toBeUndefined();
    expect(() => findProgram('missing-idea-tool', env)).toThrow(/missing-idea-tool was not found .*\(2 of them\)/);
    expect(() => findProgram('bin/tool', env)).toThrow(/not a bare program name/);
  });
});

describe('resolveCommand (a command the user typed)', () => {
  it('an absolute path as is, a relative path from the given cwd (not the workspace), a bare name from PATH', () => {
    expect(resolveCommand('/opt/ls/server', { env: {} })).toBe('/opt/ls/server');
    expect(resolveCommand('./tools/ls', { cwd: '/home/me', env: {} })).toBe('/home/me/tools/ls');
    expect(resolveCommand('tools/ls', { cwd: '/home/me', env: {} })).toBe('/home/me/tools/ls');
    expect(resolveCommand('tool', { env: { PATH: `node_modules/.bin:${good}` } })).toBe(join(good, 'tool'));
    expect(() => resolveCommand('tool', { env: { PATH: 'node_modules/.bin' } })).toThrow(ProgramNotFoundError);
  });
});

describe('programEnv (every child)', () => {
  it("keeps PATH's absolute folders only, drops PATH when none is left, keeps the rest", () => {
    expect(programEnv({ PATH: `.:${good}::node_modules/.bin:/usr/bin`, HOME: '/h', GONE: undefined })).toEqual({
      PATH: `${good}:/usr/bin`,
      HOME: '/h',
    });
    expect(programEnv({ PATH: '.::bin', HOME: '/h' })).toEqual({ HOME: '/h' });
    expect(programEnv({ HOME: '/h' })).toEqual({ HOME: '/h' });
    expect(programEnv({ Path: 'C:\\bin;.;bin;;D:\\x' }, 'win32')).toEqual({ Path: 'C:\\bin;D:\\x' });
  });
});
