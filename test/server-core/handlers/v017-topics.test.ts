// v0.1.7's request topics over a stand-in host: which topics a host serves (optional LanguageFeatures
// members, the optional editor), hover and typeDefinition through the shared location code, and
// edit/rename through the core's write path (dry run writes nothing, dirty and protected files refused,
// a provider's refusal carried in INVALID_REQUEST, originals kept in local history).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { coreContext } from '../../../server-core/context';
import { editRename } from '../../../server-core/handlers/edit-rename';
import { editorOpen } from '../../../server-core/handlers/editor-open';
import { createCoreHandlers, servedTopics } from '../../../server-core/handlers/index';
import { navHover } from '../../../server-core/handlers/nav-hover';
import { navTypeDefinition } from '../../../server-core/handlers/nav-type-definition';
import {
  type EditorHost,
  type LanguageFeatures,
  type Range,
  type RenameFileEdits,
  RenameRejectedError,
} from '../../../server-core/host';
import { fakeHost } from '../fake-host';

const root = mkdtempSync(join(tmpdir(), 'idea-v017-'));
const ws = join(root, 'ws');
const a = join(ws, 'a.ts');
const b = join(ws, 'b.ts');
const A = 'export const oldName = 1;\r\nexport const twice = oldName + oldName;\n';
const B = '\ufeffimport { oldName } from "./a";\nconsole.log(oldName);\n';
beforeEach(() => {
  rmSync(ws, { recursive: true, force: true });
  rmSync(join(root, 'History'), { recursive: true, force: true });
  mkdirSync(join(ws, '.vscode'), { recursive: true });
  writeFileSync(a, A);
  writeFileSync(b, B);
  writeFileSync(join(ws, '.vscode', 'settings.json'), '{ "x": "oldName" }\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const r = (l1: number, c1: number, l2: number, c2: number): Range => ({
  start: { line: l1, character: c1 },
  end: { line: l2, character: c2 },
});
const ctx = { topic: '/app/vscode/edit/rename' as const, requestId: 'r', signal: new AbortController().signal };

/** Every occurrence of `oldName` in the files as the fake provider's edits. */
const renameEdits = (newName: string): RenameFileEdits[] => [
  { filePath: b, edits: [r(1, 12, 1, 19), r(0, 9, 0, 16)].map((range) => ({ range, newText: newName })) },
  {
    filePath: a,
    edits: [r(0, 13, 0, 20), r(1, 21, 1, 28), r(1, 31, 1, 38)].map((range) => ({ range, newText: newName })),
  },
];
const language: Partial<LanguageFeatures> = {
  prepareRename: async () => ({ range: r(0, 13, 0, 20) }),
  rename: async (_p, _at, newName) => renameEdits(newName),
};
const at = { filePath: a, line: 0, character: 15 };
/** The write topics' defaults (v0.1.8: no diagnostics after the write). */
const noDiagnostics = { diagnostics: false, diagnosticsWaitMs: 5000 };

function rename(lang: Partial<LanguageFeatures> = language) {
  const host = fakeHost(root, { language: lang });
  const svc = coreContext(host);
  return { host, handler: editRename(svc, svc.language.rename!.bind(svc.language)) };
}

describe('which topics a host serves', () => {
  const editor: EditorHost = {
    context: () => ({ active: undefined, visible: [], tabs: [] }),
    open: async (_p, s) => s,
  };
  it('leaves out the v0.1.7 topics a host has no member for, and serves them when it has', () => {
    const bare = servedTopics(createCoreHandlers(fakeHost(root)));
    // The 13 of v0.1.6, v0.1.8's two that need only document symbols and references, and its writes.
    const writes = ['/app/vscode/edit/apply', '/app/vscode/edit/undo', '/app/vscode/edit/transactions'];
    expect(bare).toHaveLength(15 + writes.length);
    expect(bare.filter((t) => writes.includes(t))).toEqual(writes);
    expect(bare.filter((t) => /findSymbol|referencingSymbols/.test(t))).toEqual([
      '/app/vscode/nav/findSymbol',
      '/app/vscode/nav/referencingSymbols',
    ]);
    expect(
      bare.some((t) => /hover|typeDefinition|implementation|rename|editor\/|workspaceSymbols|callHierarchy/.test(t)),
    ).toBe(false);
    const full = fakeHost(root, {
      language: { ...language, hover: async () => ({ contents: [] }), typeDefinition: async () => [] },
    });
    full.editor = editor;
    const topics = servedTopics(createCoreHandlers(full));
    expect(topics.filter((t) => !bare.includes(t))).toEqual([
      '/app/vscode/nav/hover',
      '/app/vscode/nav/typeDefinition',
      '/app/vscode/edit/rename',
      '/app/vscode/editor/context',
      '/app/vscode/editor/open',
    ]);
  });
});

describe('nav/hover and nav/typeDefinition', () => {
  it('answers hover sections and range; Unavailable is an empty answer, logged', async () => {
    const host = fakeHost(root);
    const svc = coreContext(host);
    const hover = navHover(svc, async () => ({
      contents: [
        { kind: 'markdown', value: '```ts\nconst oldName: 1\n```' },
        { kind: 'plaintext', value: '' },
      ],
      range: r(0, 13, 0, 20),
    }));
    expect(await hover(at, ctx)).toEqual({
      contents: [{ kind: 'markdown', value: '```ts\nconst oldName: 1\n```' }],
      range: { line: 0, character: 13, endLine: 0, endCharacter: 20 },
    });
    const none = navHover(svc, async () => ({ unavailable: 'no server', kind: 'down' }));
    expect(await none(at, ctx)).toEqual({ contents: [], unavailable: { kind: 'down', reason: 'no server' } });
    expect(host.logged).toContain('hover: no server');
  });

  it('gives a type definition its declaration text', async () => {
    const svc = coreContext(fakeHost(root));
    const typeDef = navTypeDefinition(svc, async () => [
      { filePath: a, range: r(1, 13, 1, 18), targetRange: r(1, 0, 1, 39) },
    ]);
    expect((await typeDef(at, ctx)).locations).toEqual([
      {
        filePath: a,
        line: 1,
        character: 0,
        endLine: 1,
        endCharacter: 39,
        code: 'export const twice = oldName + oldName;',
      },
    ]);
    await expect(typeDef({ filePath: a, line: 9, character: 0 }, ctx)).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
    });
  });
});

// clause H16: rename writes through the write path; dry run, unsaved and protected files change nothing.
describe('edit/rename', () => {
  it('a dry run answers edits and diffs and writes nothing', async () => {
    const res = await rename().handler({ ...at, ...noDiagnostics, newName: 'newName', dryRun: true }, ctx);
    expect(res.dryRun).toBe(true);
    expect(res.changedFiles).toEqual([]);
    expect(res.editCount).toBe(5);
    expect(res.files.map((f) => f.filePath)).toEqual([a, b]);
    expect(res.files[1]!.edits.map((e) => e.line)).toEqual([0, 1]); // sorted by position
    expect(res.files[0]!.diff).toContain('+export const twice = newName + newName;');
    expect(res.files[0]!.diff.startsWith('Index: a.ts') || res.files[0]!.diff.includes('--- a/a.ts')).toBe(true);
    expect(readFileSync(a, 'utf8')).toBe(A);
    expect(readFileSync(b, 'utf8')).toBe(B);
  });

  it('writes every file through the write path, keeping BOM, CRLF and the originals', async () => {
    const { host, handler } = rename();
    const res = await handler({ ...at, ...noDiagnostics, newName: 'newName', dryRun: false }, ctx);
    expect(res.changedFiles).toEqual([a, b]);
    expect(readFileSync(a, 'utf8')).toBe(A.replaceAll('oldName', 'newName'));
    expect(readFileSync(b, 'utf8')).toBe(B.replaceAll('oldName', 'newName'));
    const kept = readdirSync(join(root, 'History'), { recursive: true }).map(String);
    expect(kept.filter((f) => f.endsWith('entries.json'))).toHaveLength(2);
    expect(host.caughtUp.sort()).toEqual([a, b]);
  });

  it('refuses a file with unsaved editor changes and changes nothing', async () => {
    const { host, handler } = rename();
    host.docs.push({ path: b, text: B, dirty: true });
    for (const dryRun of [true, false])
      await expect(handler({ ...at, ...noDiagnostics, newName: 'newName', dryRun }, ctx)).rejects.toThrow(
        /unsaved changes/,
      );
    expect(readFileSync(a, 'utf8')).toBe(A);
    expect(existsSync(join(root, 'History'))).toBe(false);
  });

  it('refuses protected paths and files outside the workspace', async () => {
    const settings = join(ws, '.vscode', 'settings.json');
    const into = (filePath: string) =>
      rename({
        ...language,
        rename: async (_p, _a, n) => [...renameEdits(n), { filePath, edits: [{ range: r(0, 8, 0, 15), newText: n }] }],
      }).handler({ ...at, ...noDiagnostics, newName: 'newName', dryRun: false }, ctx);
    await expect(into(settings)).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      message: expect.stringMatching(/may not be written/),
    });
    await expect(into(join(root, 'outside.ts'))).rejects.toMatchObject({
      message: expect.stringMatching(/outside every workspace folder/),
    });
    await expect(into('untitled:Untitled-1')).rejects.toMatchObject({
      message: expect.stringMatching(/outside every workspace folder/),
    });
    expect(readFileSync(a, 'utf8')).toBe(A);
  });

  it("carries the provider's refusal and checks the new name against an identifier", async () => {
    // A provider refuses the rename where its prepareRename does (host.ts): with an error, or no answer
    // (typescript-language-server's null); the message is prepareRename's, as when it was asked first.
    const cannot = async () => {
      throw new RenameRejectedError('You cannot rename this element.');
    };
    for (const refused of [cannot, async () => null])
      await expect(
        rename({ prepareRename: cannot, rename: refused }).handler(
          { ...at, ...noDiagnostics, newName: 'x', dryRun: true },
          ctx,
        ),
      ).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        message: 'nothing to rename at 0:15: You cannot rename this element.',
      });
    // A rename refused where prepareRename was not: the rename's own message.
    await expect(
      rename({ ...language, rename: cannot }).handler({ ...at, ...noDiagnostics, newName: 'x', dryRun: true }, ctx),
    ).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'cannot rename at 0:15: You cannot rename this element.',
    });
    await expect(
      rename({ ...language, rename: async () => null }).handler(
        { ...at, ...noDiagnostics, newName: 'x', dryRun: true },
        ctx,
      ),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringMatching(/no rename provider answers/) });
    await expect(
      rename().handler({ ...at, ...noDiagnostics, newName: 'not a name', dryRun: true }, ctx),
    ).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      message: expect.stringMatching(/"not a name" is not a valid name for oldName/),
    });
    await expect(
      rename({ rename: async () => ({ unavailable: 'no server for .ts' }) }).handler(
        { ...at, ...noDiagnostics, newName: 'x', dryRun: true },
        ctx,
      ),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringMatching(/no server for \.ts/) });
  });

  it('asks prepareRename only when the new name is not an identifier, or the rename gave nothing (issue 33)', async () => {
    const asked: string[] = [];
    const counting = (lang: Partial<LanguageFeatures>) =>
      rename({
        prepareRename: async (...args) => (asked.push('prepareRename'), lang.prepareRename!(...args)),
        rename: async (...args) => (asked.push('rename'), lang.rename!(...args)),
      });
    // An identifier passes the name check whatever it replaces: one round trip, the rename.
    const res = await counting(language).handler({ ...at, ...noDiagnostics, newName: 'newName', dryRun: false }, ctx);
    expect(res.changedFiles).toEqual([a, b]);
    expect(asked).toEqual(['rename']);
    asked.length = 0;
    await expect(
      counting(language).handler({ ...at, ...noDiagnostics, newName: 'not a name', dryRun: true }, ctx),
    ).rejects.toThrow(/not a valid name/);
    expect(asked).toEqual(['prepareRename']); // checked before the rename, which is not asked
    asked.length = 0;
    await counting({ ...language, rename: async () => [] }).handler(
      { ...at, ...noDiagnostics, newName: 'x', dryRun: true },
      ctx,
    );
    expect(asked).toEqual(['rename', 'prepareRename']); // no edits: asked whether it refuses
  });

  it('refuses overlapping edits and an editor copy that differs from the disk', async () => {
    const overlapping = rename({
      rename: async () => [
        { filePath: a, edits: [r(0, 13, 0, 20), r(0, 15, 0, 22)].map((range) => ({ range, newText: 'x' })) },
      ],
    });
    await expect(overlapping.handler({ ...at, ...noDiagnostics, newName: 'x', dryRun: false }, ctx)).rejects.toThrow(
      /overlapping/,
    );
    const stale = rename();
    stale.host.docs.push({ path: a, text: 'export const oldName = 2;\n', dirty: false });
    await expect(stale.handler({ ...at, ...noDiagnostics, newName: 'x', dryRun: false }, ctx)).rejects.toThrow(
      /changed on disk/,
    );
    expect(readFileSync(a, 'utf8')).toBe(A);
  });
});

describe('editor/open', () => {
  it('checks lines, clamps characters and orders the range', async () => {
    const opened: Range[] = [];
    const svc = coreContext(fakeHost(root));
    const open = editorOpen(svc, {
      context: () => ({ active: undefined, visible: [], tabs: [] }),
      open: async (_p, s) => (opened.push(s), s),
    });
    const o = { topic: '/app/vscode/editor/open' as const, requestId: 'r', signal: ctx.signal };
    expect(await open({ filePath: a, line: 1, character: 500, preserveFocus: false }, o)).toMatchObject({
      line: 1,
      character: 39,
    });
    expect(await open({ filePath: a, preserveFocus: false }, o)).toMatchObject({ line: 0, character: 0, endLine: 0 });
    await expect(open({ filePath: a, line: 3, preserveFocus: false }, o)).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
    });
    await expect(
      open({ filePath: a, line: 1, character: 5, endLine: 1, endCharacter: 2, preserveFocus: false }, o),
    ).rejects.toThrow(/ends before/);
    expect(opened).toHaveLength(2);
  });
});
