// The fast reset (conformance/workspace/reset.ts) puts back only what a case changed, without git, and
// leaves everything else to git. Whatever path it takes, the workspace must end up exactly as fresh:
// checked here against git's own view (the fingerprint) and against a full reset through git.
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFixtureWorkspace, resetFixtureWorkspaceDetailed } from '../../conformance/workspace';
import { git, stateFingerprint } from '../../conformance/workspace/build';
import { freshFingerprint, indexEntries } from '../../conformance/workspace/reset';

const tmp = mkdtempSync(join(tmpdir(), 'idea-fixture-reset-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * Everything below `dir` but .git: path → kind, executable bit, content (symlinks: target). The traps
 * hold the workspace's own path (and its marker folder's, `<dir>.traps`): written as `<ws>`, so that two
 * workspaces compare.
 */
function tree(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (path === '.git') continue;
    const abs = join(dir, path);
    if (e.isDirectory()) Object.assign(out, tree(dir, path), { [`${path}/`]: 'dir' });
    else if (e.isSymbolicLink()) out[path] = `link -> ${readlinkSync(abs)}`;
    else out[path] = `${lstatSync(abs).mode & 0o111 ? 'x' : '-'} ${readFileSync(abs, 'utf8').split(dir).join('<ws>')}`;
  }
  return out;
}

let n = 0;
function fresh(): string {
  return buildFixtureWorkspace(join(tmp, `ws${n++}`)).dir;
}

const outside = join(tmp, 'outside');
mkdirSync(outside);
writeFileSync(join(outside, 'victim.txt'), 'keep me\n');

/** A change a destructive case (or a server) could leave behind, and the path the reset is expected to take. */
const changes: {
  name: string;
  via: 'files' | 'git';
  change: (dir: string) => void;
  restored?: string[];
  gitSeesIt?: false;
}[] = [
  {
    name: 'a tracked file edited',
    via: 'files',
    change: (d) => writeFileSync(join(d, 'src/shapes.ts'), 'changed\n'),
    restored: ['src/shapes.ts'],
  },
  {
    name: 'a tracked file with a space in its name edited',
    via: 'files',
    change: (d) => writeFileSync(join(d, 'docs/release notes.md'), '# x\n'),
    restored: ['docs/release notes.md'],
  },
  {
    name: 'a tracked file deleted',
    via: 'files',
    change: (d) => unlinkSync(join(d, 'README.md')),
    restored: ['README.md'],
  },
  {
    name: 'a whole folder deleted',
    via: 'files',
    change: (d) => rmSync(join(d, 'notes'), { recursive: true }),
    restored: ['notes/journal.md'],
  },
  {
    name: 'the uncommitted overlay file edited',
    via: 'files',
    change: (d) => writeFileSync(join(d, 'src/config.ts'), 'x\n'),
    restored: ['src/config.ts'],
  },
  {
    name: 'the uncommitted overlay file reverted to HEAD',
    via: 'files',
    change: (d) => git(d, ['checkout', '--', 'src/config.ts']),
    restored: ['src/config.ts'],
  },
  {
    name: 'an ignored overlay file edited',
    via: 'files',
    change: (d) => writeFileSync(join(d, 'node_modules/fake-pkg/index.js'), 'x\n'),
    restored: ['node_modules/fake-pkg/index.js'],
  },
  {
    name: 'the hidden untracked file deleted',
    via: 'files',
    change: (d) => unlinkSync(join(d, 'hidden/secret-haystack.txt')),
    restored: ['hidden/secret-haystack.txt'],
  },
  {
    name: 'a tracked file made executable',
    via: 'files',
    change: (d) => chmodSync(join(d, 'src/main.ts'), 0o755),
    restored: ['src/main.ts'],
  },
  {
    name: 'the fixture key removed from .vscode/settings.json',
    via: 'files',
    change: (d) => writeFileSync(join(d, '.vscode/settings.json'), JSON.stringify({ 'idea.server.port': 7201 })),
    restored: [],
    gitSeesIt: false,
  },
  {
    name: 'several files at once',
    via: 'files',
    change: (d) => {
      writeFileSync(join(d, 'text/search.txt'), '');
      unlinkSync(join(d, 'src/format.ts'));
    },
    restored: ['src/format.ts', 'text/search.txt'],
  },
  { name: 'an untracked file added', via: 'git', change: (d) => writeFileSync(join(d, 'src/new.ts'), 'x\n') },
  {
    name: 'an untracked folder added',
    via: 'git',
    change: (d) => {
      mkdirSync(join(d, 'extra/deep'), { recursive: true });
      writeFileSync(join(d, 'extra/deep/a.txt'), 'x');
    },
  },
  {
    name: 'a change staged, the work tree as fresh',
    via: 'git',
    change: (d) => {
      const was = readFileSync(join(d, 'README.md'));
      writeFileSync(join(d, 'README.md'), 'staged\n');
      git(d, ['add', 'README.md']);
      writeFileSync(join(d, 'README.md'), was);
    },
  },
  {
    name: 'a commit on the branch',
    via: 'git',
    change: (d) => {
      writeFileSync(join(d, 'README.md'), 'committed\n');
      git(d, ['-c', 'user.name=x', '-c', 'user.email=x@x', 'commit', '-q', '-am', 'x']);
    },
  },
  {
    name: 'the branch moved to another commit, index and work tree as fresh',
    via: 'git',
    change: (d) => git(d, ['update-ref', 'refs/heads/main', 'HEAD~1']),
  },
  {
    name: 'a tracked file replaced by a symlink out of the workspace',
    via: 'git',
    change: (d) => {
      unlinkSync(join(d, 'src/shapes.ts'));
      symlinkSync(join(outside, 'victim.txt'), join(d, 'src/shapes.ts'));
    },
  },
  {
    name: 'a folder replaced by a symlink out of the workspace',
    via: 'git',
    change: (d) => {
      rmSync(join(d, 'notes'), { recursive: true });
      symlinkSync(outside, join(d, 'notes'));
    },
  },
  {
    name: 'node_modules replaced by a symlink out of the workspace',
    via: 'git',
    change: (d) => {
      rmSync(join(d, 'node_modules'), { recursive: true });
      symlinkSync(outside, join(d, 'node_modules'));
    },
  },
];

describe('fast reset of the fixture workspace', () => {
  const reference = fresh();
  const freshTree = tree(reference);

  it('reads the index as git does', () => {
    const lsFiles = git(reference, ['ls-files', '-s', '-z'])
      .split('\0')
      .filter(Boolean)
      .map((l) => {
        const [meta, path] = l.split('\t');
        const [mode, id, stage] = meta!.split(' ');
        return `${path}\0${mode}\0${id}\0${stage}`;
      });
    expect(indexEntries(readFileSync(join(reference, '.git', 'index')))).toBe(lsFiles.join('\n'));
    expect(indexEntries(Buffer.from('not an index'))).toBeUndefined();
  });

  it('touches nothing in a fresh workspace', () => {
    const dir = fresh();
    const before = lstatSync(join(dir, 'src/shapes.ts')).mtimeMs;
    expect(resetFixtureWorkspaceDetailed(dir)).toEqual({ changed: false, restored: [] });
    expect(lstatSync(join(dir, 'src/shapes.ts')).mtimeMs).toBe(before);
  });

  for (const c of changes) {
    it(`${c.name}: restored through ${c.via === 'files' ? 'the files alone' : 'git'}, exactly as a reset through git does`, () => {
      const dir = fresh();
      const viaGit = fresh();
      c.change(dir);
      c.change(viaGit);
      const out = resetFixtureWorkspaceDetailed(dir);
      expect(out.changed).toBe(true);
      expect(out.via).toBe(c.via);
      if (c.restored) expect(out.restored.map((f) => f.path).sort()).toEqual(c.restored);
      expect(stateFingerprint(dir)).toBe(freshFingerprint());
      const settled = tree(dir);
      // The same end state as the reset through git alone (which does not look at .vscode/settings.json).
      if (c.gitSeesIt !== false) {
        expect(resetFixtureWorkspaceDetailed(viaGit, { forceGit: true }).via).toBe('git');
        expect(settled).toEqual(tree(viaGit));
      }
      // The server's own settings keys survive; everything else is the fresh tree.
      expect({ ...settled, '.vscode/settings.json': '' }).toEqual({ ...freshTree, '.vscode/settings.json': '' });
      expect(JSON.parse(settled['.vscode/settings.json']!.slice(2))['files.exclude']).toEqual({ '**/hidden': true });
      expect(readFileSync(join(outside, 'victim.txt'), 'utf8')).toBe('keep me\n');
      expect(readdirSync(outside)).toEqual(['victim.txt']);
      expect(resetFixtureWorkspaceDetailed(dir)).toEqual({ changed: false, restored: [] });
    });
  }

  it('says what a search can see of what it restored', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'src/shapes.ts'), 'x');
    writeFileSync(join(dir, 'node_modules/fake-pkg/index.js'), 'x');
    unlinkSync(join(dir, 'hidden/secret-haystack.txt'));
    writeFileSync(join(dir, '.gitignore'), 'x');
    const out = resetFixtureWorkspaceDetailed(dir);
    expect(Object.fromEntries(out.restored.map((f) => [f.path, f.searchable]))).toEqual({
      'src/shapes.ts': true,
      'node_modules/fake-pkg/index.js': false,
      'hidden/secret-haystack.txt': false,
      '.gitignore': false,
    });
    expect(out.restored.find((f) => f.path === 'src/shapes.ts')!.text).toBe(
      readFileSync(join(dir, 'src/shapes.ts'), 'utf8'),
    );
  });

  it('keeps what git ignores, as git clean does (a *.log file, a file listed in .git/info/exclude)', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'src/debug.log'), 'x');
    expect(resetFixtureWorkspaceDetailed(dir).changed).toBe(false);
    writeFileSync(join(dir, '.git/info/exclude'), 'server-state/\n');
    mkdirSync(join(dir, 'server-state'));
    writeFileSync(join(dir, 'server-state/a'), 'x');
    writeFileSync(join(dir, 'README.md'), 'changed\n');
    writeFileSync(join(dir, 'stray.txt'), 'x');
    const out = resetFixtureWorkspaceDetailed(dir);
    expect(out.via).toBe('git');
    // What git removed is reported removed; what it kept (excluded) is not reported at all.
    expect(out.restored.map((f) => [f.path, f.text])).toEqual([
      ['README.md', readFileSync(join(dir, 'README.md'), 'utf8')],
      ['stray.txt', null],
    ]);
    expect(resetFixtureWorkspaceDetailed(dir).changed).toBe(false);
    expect(readFileSync(join(dir, 'server-state/a'), 'utf8')).toBe('x');
    expect(readFileSync(join(dir, 'src/debug.log'), 'utf8')).toBe('x');
    expect(stateFingerprint(dir)).toBe(freshFingerprint());
  });
});
