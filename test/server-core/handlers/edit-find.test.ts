// edit/find's handler over a stand-in host: VS Code's exclude settings (per folder), every workspace
// folder, and unsaved editor contents searched instead of the disk copy.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { coreContext } from '../../../server-core/context';
import { editFind } from '../../../server-core/handlers/edit-find';
import type { CoreHost } from '../../../server-core/host';
import { useTestSpawner } from '../spawn/spawner-build';

// git/rg run through the spawner process, as in the servers.
useTestSpawner();

const state = {
  folders: [] as string[],
  docs: [] as { path: string; text: string; dirty: boolean }[],
};

// A host as an editor would give it: exclude settings as VS Code stores them, unsaved documents.
const host: CoreHost = {
  folders: {
    paths: () => state.folders,
    searchSettings: () => ({
      filesExclude: { '**/.git': true, '**/hidden': true },
      searchExclude: { '**/node_modules': true, '**/generated': { when: '$(basename).ts' } },
      useIgnoreFiles: true,
    }),
  },
  documents: {
    dirty: () => state.docs.filter((d) => d.dirty).map((d) => ({ path: d.path, text: () => d.text })),
    isDirty: (path) => state.docs.some((d) => d.path === path && d.dirty),
    text: (path) => state.docs.find((d) => d.path === path)?.text,
  },
  language: {} as CoreHost['language'],
  localHistory: { home: join(tmpdir(), 'idea-find-h-unused-history'), recordsSave: () => false },
  limits: { values: () => ({}) },
  tools: { ripgrep: 'rg', stateDir: '', log: () => undefined },
};

let base: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'idea-find-h-'));
  const a = join(base, 'a');
  const b = join(base, 'b');
  for (const d of ['src', 'hidden', 'node_modules/x', '.git']) mkdirSync(join(a, d), { recursive: true });
  mkdirSync(join(b, 'lib'), { recursive: true });
  writeFileSync(join(a, 'src/one.ts'), 'const needle = 1;\n');
  writeFileSync(join(a, 'src/two.ts'), 'nothing here\n');
  writeFileSync(join(a, 'hidden/h.ts'), 'needle\n');
  writeFileSync(join(a, 'node_modules/x/i.js'), 'needle\n');
  writeFileSync(join(a, '.git/config'), 'needle\n');
  writeFileSync(join(b, 'lib/three.ts'), '// a needle in folder b\n');
  state.folders = [a, b];
  state.docs = [
    { path: join(a, 'src/one.ts'), text: 'const renamed = 1;\n', dirty: true }, // unsaved: needle removed
    { path: join(a, 'src/two.ts'), text: 'nothing here\nneedle added, unsaved\n', dirty: true },
    { path: join(b, 'lib/three.ts'), text: 'stale text without it\n', dirty: false }, // saved: disk is the truth
  ];
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const svc = coreContext(host);
const ctx = { topic: '/app/vscode/edit/find' as const, requestId: 'r', signal: new AbortController().signal };

it('searches all folders, applies files.exclude and search.exclude, and reads unsaved documents from memory', async () => {
  const r = await editFind(svc)({ pattern: 'NEEDLE', include: '**/*', isRegex: false, isCaseSensitive: false }, ctx);
  expect(r.matches.map((m) => `${m.filePath.slice(base.length + 1)}:${m.line}:${m.character}`)).toEqual([
    'a/src/two.ts:1:0',
    'b/lib/three.ts:0:5',
  ]);
  expect(r.totalCount).toBe(2);
});

it('the request exclude adds to the settings', async () => {
  const r = await editFind(svc)(
    { pattern: 'needle', include: '**/*', exclude: 'lib/**', isRegex: false, isCaseSensitive: true },
    ctx,
  );
  expect(r.matches.map((m) => m.filePath.slice(base.length + 1))).toEqual(['a/src/two.ts']);
});
