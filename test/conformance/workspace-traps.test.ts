// The hostile-repository traps (conformance/workspace/traps.ts) are live: each one, run the way a careless
// server would run it (plain git, a bare name through a relative PATH entry, node on a workspace copy),
// leaves its marker. Disarmed git prints what it prints without them, and the fixture workspace always
// carries them through builds and resets.
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildFixtureWorkspace,
  clearTrapMarkers,
  firedTraps,
  plantTraps,
  readTrapManifest,
  resetFixtureWorkspaceDetailed,
  TRAPS_MANIFEST,
} from '../../conformance/workspace';
import { git, restoreGitConfig, trapMarkerDir } from '../../conformance/workspace/build';
import { DISARMING_ARGS, disarmedEnv } from '../../runtime/git-disarm';

const tmp = mkdtempSync(join(tmpdir(), 'idea-traps-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const fresh = () => buildFixtureWorkspace(join(tmp, `ws${n++}`));

/** git as a server that does not disarm it would run it: the repository's own configuration in force. */
const plainEnv = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: tmp,
  LC_ALL: 'C',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  GIT_AUTHOR_NAME: 'A',
  GIT_AUTHOR_EMAIL: 'a@example.invalid',
  GIT_COMMITTER_NAME: 'A',
  GIT_COMMITTER_EMAIL: 'a@example.invalid',
};

/** Runs a program to completion (20 s at most); its exit code does not matter (a trap may make it fail). */
function run(
  cwd: string,
  file: string,
  args: string[],
  o: { env?: Record<string, string>; input?: string } = {},
): SpawnSyncReturns<string> {
  const r = spawnSync(file, args, {
    cwd,
    env: { ...plainEnv, ...o.env },
    input: o.input ?? '',
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (r.error) throw new Error(`${file} ${args.join(' ')} in ${cwd} did not finish: ${r.error.message}`);
  return r;
}
const plainGit = (cwd: string, args: string[], o?: Parameters<typeof run>[3]) => run(cwd, 'git', args, o);

/** Fired trap ids, and each marker's text. */
function fired(markerDir: string): Record<string, string> {
  return Object.fromEntries(firedTraps(markerDir).map((f) => [f.id, f.detail]));
}

describe('every trap of the fixture set runs when something runs what the workspace names', () => {
  it('git: hooks, hooksPath, fsmonitor, filters, diff programs, pagers, editors, transports, signing', () => {
    const { dir, traps } = fresh();
    const markers = traps!.markerDir;
    const base = git(dir, ['rev-list', '--max-parents=0', 'HEAD']);
    const scale = git(dir, ['rev-list', '--reverse', 'HEAD']).split('\n')[2]!;
    // A plain status refreshes the index: fsmonitor, the clean and process filters, post-index-change (hooksPath).
    expect(plainGit(dir, ['status', '--porcelain']).stdout).toContain(' M src/config.ts');
    plainGit(dir, ['-c', `core.hooksPath=${join(dir, '.git/hooks')}`, 'commit', '-q', '--allow-empty', '-m', 'x']);
    plainGit(dir, ['diff', `${base}`, 'HEAD', '--', 'README.md']); // *.md: diff.external
    plainGit(dir, ['diff', `${base}`, 'HEAD', '--', 'src/shapes.ts']); // the driver's command
    plainGit(dir, ['diff', '--no-ext-diff', `${base}`, 'HEAD', '--', 'src/shapes.ts']); // its textconv
    plainGit(dir, ['checkout', '--', 'src/config.ts']); // smudge
    if (existsSync('/usr/bin/script')) {
      // A pager runs only on a terminal.
      run(dir, 'script', ['-qc', 'git log -1', '/dev/null']); // pager.log
      run(dir, 'script', ['-qc', 'git reflog -1', '/dev/null']); // core.pager
    } else {
      for (const v of ['pager.log', 'core.pager'])
        run(dir, 'sh', ['-c', plainGit(dir, ['config', v]).stdout.trim()], { input: 'x\n' });
    }
    plainGit(dir, ['commit', '--allow-empty']); // core.editor
    plainGit(dir, ['rebase', '-i', '--autostash', 'HEAD~1']); // sequence.editor
    plainGit(dir, ['revert', '--no-commit', scale]); // both sides changed src/shapes.ts: the merge driver
    plainGit(dir, ['revert', '--abort']);
    plainGit(dir, ['commit', '-q', '--allow-empty', '-S', '-m', 'signed']); // gpg.program
    plainGit(dir, ['-c', 'gpg.format=ssh', 'commit', '-q', '--allow-empty', '-S', '-m', 'signed']); // gpg.ssh
    plainGit(dir, ['credential', 'fill'], { input: 'protocol=https\nhost=example.invalid\n\n' }); // helper, askpass
    plainGit(dir, ['ls-remote', 'ssh://example.invalid/x']); // core.sshCommand
    plainGit(dir, ['ls-remote', 'git://example.invalid/x']); // core.gitProxy
    // An alternate's refs, when fetching into the repository.
    const other = join(tmp, `other${n++}`);
    plainGit(tmp, ['init', '-q', other]);
    plainGit(other, ['commit', '-q', '--allow-empty', '-m', 'o']);
    writeFileSync(join(dir, '.git/objects/info/alternates'), `${join(other, '.git/objects')}\n`);
    plainGit(dir, ['fetch', '-q', other, 'HEAD']);
    // git honours uploadpack.packObjectsHook only from a global or system config: as one, it runs.
    plainGit(tmp, ['clone', '-q', '--no-local', dir, join(tmp, `clone${n++}`)], {
      env: { GIT_CONFIG_GLOBAL: join(dir, '.git/idea-traps/included.config') },
    });
    const got = fired(markers);
    const gitIds = traps!.traps.map((t) => t.id).filter((id) => id.startsWith('git-'));
    expect(Object.keys(got).sort()).toEqual(gitIds.sort());
    expect(got['git-fsmonitor']).toMatch(/pid=\d+ cwd=\S+ argv=\S+\/git-fsmonitor \d/);
    expect(got['git-hooks']).toContain('/.git/hooks/pre-commit');
    expect(got['git-hooks-path']).toContain('/.git/idea-traps/hooks/post-index-change');
    expect(got['git-filter-process']).toContain('filter-process.js');
    expect(got['git-filter-clean']).toContain('argv=');
  });

  it('programs: workspace copies of TypeScript, impostors on a relative PATH, programs the settings name', () => {
    const { dir, traps } = fresh();
    const markers = traps!.markerDir;
    for (const copy of [
      'node_modules/typescript/lib/tsserver.js',
      'node_modules/typescript/lib/typescript.js',
      'node_modules/typescript/lib/tsserverlibrary.js',
      '.yarn/sdks/typescript/lib/tsserver.js',
      '.vscode/pnpify/typescript/lib/tsserver.js',
    ]) {
      const r = run(dir, process.execPath, [copy, '--stdio']);
      expect(r.status, copy).not.toBe(0); // a copy never serves
      expect(r.stderr).toContain('idea-kit conformance trap');
    }
    // require() of a copy, as a library user or an editor loading a tsdk would.
    run(dir, process.execPath, ['-e', "require('typescript')"]);
    const settings = JSON.parse(readFileSync(join(dir, '.vscode/settings.json'), 'utf8')) as Record<string, unknown>;
    run(dir, process.execPath, [
      '-e',
      `require(${JSON.stringify(join(String(settings['typescript.tsdk']), 'tsserver.js'))})`,
    ]);
    run(dir, process.execPath, [
      '-e',
      `require(require.resolve('eslint', { paths: [${JSON.stringify(String(settings['eslint.nodePath']))}] }))`,
    ]);
    // A bare name resolved through a relative PATH entry, from the workspace: the workspace's own program.
    for (const entry of ['.', 'node_modules/.bin'])
      for (const name of ['git', 'rg', 'node', 'npm', 'tsserver', 'typescript-language-server'])
        expect(run(dir, name, ['--version'], { env: { PATH: `${entry}:${plainEnv.PATH}` } }).stderr).toContain(
          'idea-kit conformance trap',
        );
    for (const key of [
      'typescript.tsserver.nodePath',
      'git.path',
      'ripgrep.path',
      'eslint.runtime',
      'python.defaultInterpreterPath',
      'terminal.integrated.shell.linux',
    ])
      run(dir, String(settings[key]), ['--version']);
    const got = fired(markers);
    expect(Object.keys(got).sort()).toEqual(
      traps!.traps
        .map((t) => t.id)
        .filter((id) => !id.startsWith('git-'))
        .sort(),
    );
    expect(got['workspace-tsserver']).toContain('file=');
    expect(got['workspace-root-program']).toContain('argv=./git --version');
    expect(got['setting-git-path']).toContain(`cwd=${dir}`);
  });

  it('the full set: a tsserver plugin named in tsconfig.json, pluginPaths, typescript.npm, a .gitattributes', () => {
    const dir = join(tmp, `repo${n++}`);
    mkdirSync(dir);
    plainGit(dir, ['init', '-q']);
    writeFileSync(join(dir, 'tsconfig.json'), '{ "compilerOptions": { "strict": true } }\n');
    const markerDir = join(tmp, `repo-markers${n++}`);
    const planted = plantTraps(dir, { markerDir, full: true });
    expect(readTrapManifest(dir)).toEqual(planted);
    const tsconfig = JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8'));
    expect(tsconfig.compilerOptions).toEqual({ strict: true, plugins: [{ name: 'idea-trap-tsserver-plugin' }] });
    expect(readFileSync(join(dir, '.gitattributes'), 'utf8')).toContain('* diff=idea-trap filter=idea-trap');
    const settings = JSON.parse(readFileSync(join(dir, '.vscode/settings.json'), 'utf8')) as Record<string, unknown>;
    // tsserver resolves a plugin from the project, then from each of pluginPaths.
    const requireFrom = (from: string, name: string) =>
      run(dir, process.execPath, [
        '-e',
        `require(require.resolve(${JSON.stringify(name)}, { paths: [${JSON.stringify(from)}] }))`,
      ]);
    requireFrom(dir, 'idea-trap-tsserver-plugin');
    requireFrom((settings['typescript.tsserver.pluginPaths'] as string[])[0]!, 'idea-trap-tsserver-plugin');
    run(dir, String(settings['typescript.npm']), ['--version']);
    expect(Object.keys(fired(markerDir))).toEqual([
      'setting-tsserver-plugin-paths',
      'setting-typescript-npm',
      'tsconfig-plugin',
    ]);
  });
});

describe('disarmed git and the traps', () => {
  it('prints exactly what it prints without them, and runs none', () => {
    const { dir, traps } = fresh();
    const disarmed = (args: string[]) =>
      spawnSync('git', [...DISARMING_ARGS, '--no-pager', ...args], {
        cwd: dir,
        env: disarmedEnv({ GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' }),
        encoding: 'utf8',
        timeout: 20_000,
      });
    // What a history topic asks git (server-core/git.ts): logs, diffs without external programs, blobs.
    const asks = [
      ['log', '--format=%H %an %aI %s', '--', 'src/shapes.ts'],
      ['diff', '--no-color', '--no-ext-diff', '--no-textconv', 'HEAD~3', 'HEAD', '--', 'src/shapes.ts', 'README.md'],
      ['show', '--no-ext-diff', '--no-textconv', 'HEAD~1'],
      ['cat-file', 'blob', 'HEAD:docs/release notes.md'],
      ['rev-parse', '--show-toplevel'],
    ];
    const withTraps = asks.map((a) => disarmed(a));
    for (const r of withTraps) expect(r.status, r.stderr).toBe(0);
    expect(firedTraps(traps!.markerDir)).toEqual([]);
    restoreGitConfig(dir); // the repository without its trap configuration (info/attributes name undefined drivers then)
    rmSync(join(dir, '.git/info/attributes'));
    expect(asks.map((a) => disarmed(a).stdout)).toEqual(withTraps.map((r) => r.stdout));
  });
});

describe('firedTraps', () => {
  it('lists each marker file by id with what it recorded; nothing for a missing folder', () => {
    const dir = join(tmp, `markers${n++}`);
    expect(firedTraps(dir)).toEqual([]);
    mkdirSync(join(dir, 'sub-folder'), { recursive: true });
    writeFileSync(join(dir, 'git-fsmonitor'), 'one\ntwo\n');
    writeFileSync(join(dir, 'workspace-tsserver'), `${'x'.repeat(3000)}\n`);
    writeFileSync(join(dir, 'Not A Marker.txt'), 'x');
    expect(firedTraps(dir)).toEqual([
      { id: 'git-fsmonitor', detail: 'one\ntwo' },
      { id: 'workspace-tsserver', detail: `${'x'.repeat(2000)}…` },
    ]);
    clearTrapMarkers(dir);
    expect(readdirSync(dir).sort()).toEqual(['Not A Marker.txt', 'sub-folder']);
  });
});

describe('plantTraps', () => {
  it('keeps the keys it does not own, plants again without writing what is in place, and replaces its own blocks', () => {
    const dir = join(tmp, `repo${n++}`);
    mkdirSync(join(dir, '.vscode'), { recursive: true });
    plainGit(dir, ['init', '-q']);
    writeFileSync(join(dir, '.vscode/settings.json'), '{\n  // mine\n  "editor.tabSize": 2,\n}\n');
    const markerDir = join(tmp, `m${n++}`);
    plantTraps(dir, { markerDir });
    const settings = JSON.parse(readFileSync(join(dir, '.vscode/settings.json'), 'utf8'));
    expect(settings['editor.tabSize']).toBe(2);
    expect(settings['git.path']).toBe(join(dir, '.vscode/idea-traps/bin/setting-git-path'));
    expect(statSync(join(dir, 'node_modules/.bin/rg')).mode & 0o777).toBe(0o755);
    expect(statSync(join(dir, '.git/hooks/pre-commit')).mode & 0o777).toBe(0o755);
    expect(JSON.parse(readFileSync(join(dir, 'node_modules/typescript/package.json'), 'utf8'))).toMatchObject({
      name: 'typescript',
      version: '9.9.9',
    });
    const config = readFileSync(join(dir, '.git/config'), 'utf8');
    expect(config).toContain('\tbare = false'); // git init's own keys kept
    const times = (files: string[]) => files.map((f) => lstatSync(join(dir, f)).mtimeMs);
    const watched = [
      'node_modules/typescript/lib/tsserver.js',
      'git',
      '.git/config',
      '.vscode/settings.json',
      TRAPS_MANIFEST,
    ];
    const before = times(watched);
    plantTraps(dir, { markerDir });
    expect(times(watched)).toEqual(before);
    // A reset rewrites .git/config without the traps; planting again puts the block back, once.
    writeFileSync(join(dir, '.git/config'), `${config}[user]\n\tname = kept\n`);
    plantTraps(dir, { markerDir });
    const again = readFileSync(join(dir, '.git/config'), 'utf8');
    expect(again.match(/# >>> idea-kit conformance traps/g)).toHaveLength(1);
    expect(again).toContain('\tname = kept');
    expect(plainGit(dir, ['config', 'core.fsmonitor']).stdout.trim()).toBe(
      join(dir, '.git/idea-traps/bin/git-fsmonitor'),
    );
    expect(plainGit(dir, ['config', 'core.sshCommand']).stdout.trim()).toBe(
      join(dir, '.git/idea-traps/bin/git-ssh-command'),
    );
  });

  it('refuses a marker folder inside the workspace or relative, and a folder that is not a git work tree', () => {
    const dir = join(tmp, `repo${n++}`);
    mkdirSync(dir);
    expect(() => plantTraps(dir, { markerDir: join(tmp, 'm') })).toThrow(/\.git is not a folder/);
    plainGit(dir, ['init', '-q']);
    expect(() => plantTraps(dir, { markerDir: join(dir, 'markers') })).toThrow(/outside the workspace/);
    expect(() => plantTraps(dir, { markerDir: 'markers' })).toThrow(/absolute/);
    expect(() => plantTraps(dir, { markerDir: join(tmp, "it's") })).toThrow(/quotes/);
  });
});

describe('the fixture workspace carries the traps', () => {
  it('built: the default set, markers beside the workspace, none fired, git status as before', () => {
    const ws = fresh();
    expect(ws.traps!.markerDir).toBe(trapMarkerDir(ws.dir));
    expect(ws.traps!.markerDir).toBe(`${ws.dir}.traps`);
    expect(readTrapManifest(ws.dir)).toEqual(ws.traps);
    expect(ws.traps!.full).toBe(false);
    expect(ws.traps!.traps.map((t) => t.id)).toContain('workspace-tsserver');
    expect(ws.traps!.traps.map((t) => t.id)).not.toContain('tsconfig-plugin');
    expect(readdirSync(ws.traps!.markerDir)).toEqual([]);
    // The impostors at the root and .yarn/ are excluded: git sees the fixture's own changes only.
    expect(git(ws.dir, ['status', '--porcelain', '-uall']).split('\n')).toEqual([
      'M src/config.ts', // (the helper trims the leading space)
      '?? hidden/secret-haystack.txt',
      '?? probe/pristine.ts',
      '?? probe/rewritten.ts',
      '?? solution/src/ledger.ts',
      '?? solution/src/report.ts',
      '?? solution/test/ledger.test.ts',
      '?? solution/tsconfig.build.json',
      '?? solution/tsconfig.json',
      '?? solution/tsconfig.test.json',
      '?? src/polygon.ts',
    ]);
    // The tracked tsconfig.json is the fixture's: no plugin in the default set.
    expect(readFileSync(join(ws.dir, 'tsconfig.json'), 'utf8')).not.toContain('plugins');
    // A rebuild starts with no marker.
    writeFileSync(join(ws.traps!.markerDir, 'git-fsmonitor'), 'from an earlier run\n');
    buildFixtureWorkspace(ws.dir);
    expect(readdirSync(ws.traps!.markerDir)).toEqual([]);
  });

  it('a reset through git plants the git traps again once git is done, and runs none of them', () => {
    const { dir, traps } = fresh();
    writeFileSync(join(dir, 'stray.txt'), 'x'); // untracked: git decides
    writeFileSync(join(dir, 'src/shapes.ts'), 'changed\n');
    const out = resetFixtureWorkspaceDetailed(dir);
    expect(out.via).toBe('git');
    expect(out.restored.map((f) => f.path).sort()).toEqual(['src/shapes.ts', 'stray.txt']);
    expect(readFileSync(join(dir, '.git/config'), 'utf8')).toContain('# >>> idea-kit conformance traps');
    expect(existsSync(join(dir, 'git'))).toBe(true); // excluded: git clean kept it
    expect(firedTraps(traps!.markerDir)).toEqual([]);
    expect(resetFixtureWorkspaceDetailed(dir)).toEqual({ changed: false, restored: [] });
  });

  it('the fast reset does not take the trap files for changes, and puts back one a server removed', () => {
    const { dir, traps } = fresh();
    const tsserver = join(dir, 'node_modules/typescript/lib/tsserver.js');
    const text = readFileSync(tsserver, 'utf8');
    unlinkSync(tsserver);
    unlinkSync(join(dir, 'rg'));
    writeFileSync(join(dir, 'src/main.ts'), 'changed\n');
    const out = resetFixtureWorkspaceDetailed(dir);
    expect(out).toMatchObject({ changed: true, via: 'files' });
    expect(out.restored.map((f) => f.path)).toEqual(['src/main.ts']);
    expect(readFileSync(tsserver, 'utf8')).toBe(text);
    expect(statSync(join(dir, 'rg')).mode & 0o777).toBe(0o755);
    expect(firedTraps(traps!.markerDir)).toEqual([]);
  });
});
