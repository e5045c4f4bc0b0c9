// clause T47's project discovery (server-core/projects.ts) on workspaces built in a temp folder: every
// tsconfig.json/jsconfig.json outside node_modules, .git and excluded folders, references followed
// (solution-style configs list their projects, not themselves), `extends` inherited, each project's file
// one that only it takes, unparsable configs and the bound reported, a tsconfig.*.json nothing references
// reported (its language server never loads it), nothing outside the workspace used; and the coverage
// the host's loader makes of it.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { coreContext } from '../../server-core/context';
import type { ProjectLoader } from '../../server-core/host';
import {
  coverWorkspace,
  discoverProjects,
  forgetProjects,
  hasProjects,
  LOADS_AT_ONCE,
  MAX_PROJECTS,
  projectsOf,
  UNREFERENCED,
  wireCoverage,
} from '../../server-core/projects';
import { fakeHost } from './fake-host';

const root = mkdtempSync(join(tmpdir(), 'idea-projects-'));
const ws = join(root, 'ws');
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeEach(() => {
  rmSync(ws, { recursive: true, force: true });
  mkdirSync(ws, { recursive: true });
  forgetProjects();
});

function write(files: Record<string, string | object>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = join(ws, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  }
}

const signal = new AbortController().signal;
function svc(opts: { loader?: ProjectLoader; filesExclude?: object; ripgrep?: string | null } = {}) {
  const host = fakeHost(root, { language: opts.loader ? { projects: opts.loader } : {} });
  host.folders.searchSettings = () => ({
    filesExclude: opts.filesExclude,
    searchExclude: undefined,
    useIgnoreFiles: true,
  });
  host.tools.ripgrep = opts.ripgrep === undefined ? 'rg' : opts.ripgrep;
  return coreContext(host);
}
const rel = (p: string) => p.slice(ws.length + 1);
const discover = async (o: Parameters<typeof svc>[0] = {}) => {
  const d = await discoverProjects(svc(o), signal);
  return {
    projects: d.projects.map((p) => [rel(p.config), rel(p.file)]),
    unusable: d.unusable.map((u) => [rel(u.config), u.reason]),
  };
};

describe('discoverProjects', () => {
  it.each([['rg'], [null]])(
    'a solution-style config lists its projects, each with a file only it takes (ripgrep: %s)',
    async (rg) => {
      write({
        'tsconfig.json':
          '{ // solution\n "files": [], "references": [{ "path": "./tsconfig.build.json" }, { "path": "./tsconfig.test.json" },],\n}',
        'tsconfig.build.json': { include: ['src'] },
        'tsconfig.test.json': { include: ['src', 'tests'] },
        'src/a.ts': 'export const a = 1;',
        'tests/a-test.ts': 'import { a } from "../src/a";',
      });
      expect(await discover({ ripgrep: rg })).toEqual({
        projects: [
          ['tsconfig.build.json', 'src/a.ts'],
          ['tsconfig.test.json', 'tests/a-test.ts'],
        ],
        unusable: [],
      });
    },
  );

  it('finds configs at any depth but not in node_modules, .git or excluded folders', async () => {
    write({
      'packages/a/tsconfig.json': {},
      'packages/a/index.ts': '',
      'packages/b/jsconfig.json': {},
      'packages/b/index.js': '',
      'node_modules/dep/tsconfig.json': {},
      'node_modules/dep/index.ts': '',
      '.git/x/tsconfig.json': {},
      '.git/x/index.ts': '',
      'generated/tsconfig.json': {},
      'generated/index.ts': '',
    });
    expect((await discover({ filesExclude: { '**/generated': true } })).projects).toEqual([
      ['packages/a/tsconfig.json', 'packages/a/index.ts'],
      ['packages/b/jsconfig.json', 'packages/b/index.js'],
    ]);
  });

  it('follows references (a folder means its tsconfig.json) and extends (include inherited)', async () => {
    write({
      'tsconfig.json': { files: [], references: [{ path: 'app' }, { path: './lib/tsconfig.lib.json' }] },
      'app/tsconfig.json': { files: ['main.ts'] },
      'app/main.ts': '',
      'app/other.ts': '',
      'base.json': { include: ['src/**/*.ts'], exclude: ['src/skip'] },
      'lib/tsconfig.lib.json': { extends: '../base.json' },
      'lib/src/skip/a.ts': '', // excluded by the base's exclude, relative to the base
      'lib/src/x.d.ts': '',
      'src/skip/b.ts': '',
      'src/y.ts': '',
    });
    expect((await discover()).projects).toEqual([
      ['app/tsconfig.json', 'app/main.ts'],
      // The base's include is relative to the base: src/y.ts, not lib/src/…
      ['lib/tsconfig.lib.json', 'src/y.ts'],
    ]);
  });

  it('takes a declaration only when the project has nothing else; JavaScript only with allowJs', async () => {
    write({
      'types/tsconfig.json': {},
      'types/index.d.ts': '',
      'js/tsconfig.json': {},
      'js/index.js': '',
      'js2/tsconfig.json': { compilerOptions: { allowJs: true } },
      'js2/index.js': '',
    });
    expect((await discover()).projects).toEqual([
      ['js2/tsconfig.json', 'js2/index.js'],
      ['types/tsconfig.json', 'types/index.d.ts'],
    ]);
  });

  it('reports a config that does not parse, and skips one that names no file', async () => {
    write({ 'bad/tsconfig.json': '{ "include": [', 'empty/tsconfig.json': { include: ['nothing-here'] } });
    const d = await discover();
    expect(d.projects).toEqual([]);
    expect(d.unusable).toEqual([['bad/tsconfig.json', expect.stringMatching(/^the config does not parse: /)]]);
  });

  it('lists a tsconfig.*.json nothing references as not searched, but not a base, one naming no file or one whose files a loaded project takes', async () => {
    write({
      'tsconfig.json': {
        extends: './tsconfig.base.json',
        include: ['src'],
        references: [{ path: './tsconfig.node.json' }],
      },
      // a build config over the sources tsconfig.json takes: searched through it (date-fns has one)
      'tsconfig.lib.json': { extends: './tsconfig.json', include: ['src'], exclude: ['src/**/*.test.ts'] },
      'tsconfig.base.json': { compilerOptions: { strict: true } }, // extended: a base, no project
      'tsconfig.node.json': { include: ['scripts'] }, // referenced: loaded with tsconfig.json
      'tsconfig.eslint.json': { extends: './tsconfig.json', include: ['src', 'scripts', 'tools'] },
      'tsconfig.solution.json': { files: [], references: [{ path: './tsconfig.eslint.json' }] },
      'src/a.ts': '',
      'scripts/b.ts': '',
      'tools/c.ts': '',
      'pkg/tsconfig.app.json': { extends: './tsconfig.shared.json' },
      'pkg/tsconfig.shared.json': {}, // only a base of an unreferenced config
      'pkg/d.ts': '',
    });
    for (const ripgrep of ['rg', null]) {
      forgetProjects();
      const d = await discover({ ripgrep });
      expect(d.projects.map(([config]) => config)).toEqual(['tsconfig.json', 'tsconfig.node.json']);
      expect(d.unusable).toEqual([
        ['pkg/tsconfig.app.json', UNREFERENCED],
        // Referenced only by a config nothing loads: not loaded either.
        ['tsconfig.eslint.json', UNREFERENCED],
      ]);
    }
  });

  it('never uses a file or config outside the workspace (references, extends, files, symlinks)', async () => {
    const outside = join(root, 'outside');
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'tsconfig.json'), JSON.stringify({}));
    writeFileSync(join(outside, 'secret.ts'), '');
    write({
      'tsconfig.json': { files: ['../outside/secret.ts'], references: [{ path: '../outside' }] },
      'inner/tsconfig.json': { include: ['link/**/*'] },
    });
    symlinkSync(outside, join(ws, 'inner', 'link'));
    expect(await discover()).toEqual({ projects: [], unusable: [] });
  });

  it(`lists the projects beyond ${MAX_PROJECTS} as not searched`, async () => {
    const files: Record<string, object | string> = {};
    for (let i = 0; i < MAX_PROJECTS + 2; i++) {
      files[`p${String(i).padStart(3, '0')}/tsconfig.json`] = {};
      files[`p${String(i).padStart(3, '0')}/a.ts`] = '';
    }
    write(files);
    const d = await discover();
    expect(d.projects).toHaveLength(MAX_PROJECTS);
    expect(d.unusable).toEqual([
      ['p128/tsconfig.json', `beyond the bound of ${MAX_PROJECTS} projects searched`],
      ['p129/tsconfig.json', `beyond the bound of ${MAX_PROJECTS} projects searched`],
    ]);
  });
});

describe('coverWorkspace', () => {
  const loaded: string[][] = [];
  const loader: ProjectLoader = {
    load: async (files) => {
      loaded.push(files.map(rel));
      return files.filter((f) => f.includes('broken')).map((path) => ({ path, reason: 'the language server is down' }));
    },
  };

  it('loads one file of each project and lists what was searched and what was not', async () => {
    write({
      'a/tsconfig.json': {},
      'a/x.ts': '',
      'broken/tsconfig.json': {},
      'broken/y.ts': '',
      'bad/tsconfig.json': '{',
    });
    loaded.length = 0;
    const c = wireCoverage(await coverWorkspace(svc({ loader }), signal, join(ws, 'a', 'x.ts')));
    expect(loaded).toEqual([['a/x.ts'], ['broken/y.ts']]);
    expect(c).toEqual({
      complete: false,
      searched: [{ kind: 'project', path: join(ws, 'a', 'tsconfig.json') }],
      notSearched: [
        { kind: 'project', path: join(ws, 'bad', 'tsconfig.json'), reason: expect.stringMatching(/does not parse/) },
        { kind: 'project', path: join(ws, 'broken', 'tsconfig.json'), reason: 'the language server is down' },
      ],
    });
  });

  it('a language without projects, or a workspace without any, covers the folders', async () => {
    write({ 'a/tsconfig.json': {}, 'a/x.ts': '', 'm.py': '' });
    expect(hasProjects(join(ws, 'm.py'))).toBe(false);
    expect(wireCoverage(await coverWorkspace(svc({ loader }), signal, join(ws, 'm.py')))).toEqual({
      complete: true,
      searched: [{ kind: 'folder', path: ws }],
      notSearched: [],
    });
    rmSync(join(ws, 'a'), { recursive: true });
    forgetProjects();
    expect(wireCoverage(await coverWorkspace(svc({ loader }), signal))).toMatchObject({
      searched: [{ kind: 'folder', path: ws }],
    });
  });

  it('projects the host has not loaded in time are listed as not searched; a cancel still cancels', async () => {
    write({ 'a/tsconfig.json': {}, 'a/x.ts': '' });
    const stuck: ProjectLoader = {
      load: (_files, s) =>
        new Promise((_resolve, reject) => s.addEventListener('abort', () => reject(s.reason), { once: true })),
    };
    // No load ends (a language server still starting): the answer waits the cap, not the budget.
    expect(wireCoverage(await coverWorkspace(svc({ loader: stuck }), signal, undefined, 100, 200))).toEqual({
      complete: false,
      searched: [],
      notSearched: [
        {
          kind: 'project',
          path: join(ws, 'a', 'tsconfig.json'),
          reason: 'not loaded within 200 ms (its language server goes on loading it: ask again)',
        },
      ],
    });
    const cancel = new AbortController();
    const asked = coverWorkspace(svc({ loader: stuck }), cancel.signal, undefined, 60_000);
    setTimeout(() => cancel.abort(new Error('cancelled')), 50);
    await expect(asked).rejects.toThrow('cancelled');
  });

  it(`loads ${LOADS_AT_ONCE} at a time within the budget; the rest load on, for the next request`, async () => {
    const files: Record<string, object | string> = {};
    for (let i = 0; i < 12; i++) {
      files[`p${String(i).padStart(2, '0')}/tsconfig.json`] = {};
      files[`p${String(i).padStart(2, '0')}/a.ts`] = '';
    }
    write(files);
    let running = 0;
    let most = 0;
    const times = new Map<string, number>();
    const slow: ProjectLoader = {
      load: async (list) => {
        running++;
        most = Math.max(most, running);
        for (const f of list) times.set(f, (times.get(f) ?? 0) + 1);
        // A project not loaded before takes 200 ms; a loaded one is cheap.
        if (times.get(list[0]!) === 1) await new Promise((done) => setTimeout(done, 200));
        running--;
        return [];
      },
    };
    await projectsOf(svc(), signal); // the discovery (kept 10 s) is not what is timed
    const started = performance.now();
    const first = wireCoverage(await coverWorkspace(svc({ loader: slow }), signal, undefined, 300, 5_000));
    // Loading them all takes 6 × 200 ms: the answer did not wait for that.
    expect(performance.now() - started).toBeLessThan(1100);
    const late = 'not loaded within 300 ms (its language server goes on loading it: ask again)';
    // 2 at a time, 200 ms each, 300 ms from the first that ended: 4 loaded (fewer on a busy machine).
    expect(first.searched.length).toBeGreaterThanOrEqual(2);
    expect(first.searched.length).toBeLessThanOrEqual(4);
    expect(first.searched.length + first.notSearched.length).toBe(12);
    expect(first.notSearched.every((n) => n.reason === late)).toBe(true);
    expect(first.complete).toBe(false);
    // The loads go on after the answer: the next request, once they are done, finds every project loaded.
    const deadline = Date.now() + 5_000;
    while ([...times.values()].length < 12 || running > 0) {
      if (Date.now() > deadline) throw new Error('the loads did not go on after the answer within 5 s');
      await new Promise((done) => setTimeout(done, 20));
    }
    const next = wireCoverage(await coverWorkspace(svc({ loader: slow }), signal, undefined, 300, 5_000));
    expect(next).toMatchObject({ complete: true, notSearched: [] });
    expect(next.searched).toHaveLength(12);
    expect(most).toBe(LOADS_AT_ONCE);
  });

  it('a host that cannot load projects does not claim them searched', async () => {
    write({ 'a/tsconfig.json': {}, 'a/x.ts': '' });
    expect(wireCoverage(await coverWorkspace(svc(), signal))).toEqual({
      complete: false,
      searched: [],
      notSearched: [
        {
          kind: 'project',
          path: join(ws, 'a', 'tsconfig.json'),
          reason: 'this server cannot load projects into its language server',
        },
      ],
    });
  });
});
