// edit/find's handler with a stand-in `vscode` module: VS Code's exclude settings (per folder), every
// workspace folder, and unsaved editor contents searched instead of the disk copy.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';

const state = vi.hoisted(() => ({
  folders: [] as string[],
  docs: [] as { path: string; text: string; dirty: boolean }[],
}));

vi.mock('vscode', () => ({
  workspace: {
    get workspaceFolders() {
      return state.folders.map((f) => ({ uri: { scheme: 'file', fsPath: f } }));
    },
    get textDocuments() {
      return state.docs.map((d) => ({
        uri: { scheme: 'file', fsPath: d.path },
        isDirty: d.dirty,
        getText: () => d.text,
      }));
    },
    getConfiguration: (section: string) => ({
      get: (key: string, dflt?: unknown) => {
        if (section === 'files' && key === 'exclude') return { '**/.git': true, '**/hidden': true };
        if (section === 'search' && key === 'exclude')
          return { '**/node_modules': true, '**/generated': { when: '$(basename).ts' } };
        return dflt;
      },
    }),
  },
}));

const { editFind } = await import('../../../extension/src/handlers/edit-find');

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

const svc = {
  folders: () => state.folders,
  rgPath: 'rg',
  localHistory: {} as never,
  stateDir: '',
  log: () => undefined,
};
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
