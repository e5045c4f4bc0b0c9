// edit/apply, edit/undo and diagnostics after a write against a real VS Code, on files open in an
// editor (clauses T52, T57, T58, H21): an open file edited shows the new text when the answer comes;
// one renamed or deleted while open is answered at once (nothing waits on the editor of a file that is
// gone) and comes back, its editor showing it, when the write is undone or the file created again; the
// diagnostics of a file open before the write are those of the new text, also when they clear; a file
// with unsaved editor changes is refused, renamed, deleted or moved with its folder, its text kept.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type IdeaClient } from '../../generated/current';
import { poll } from '../../runtime/poll';
import { type LiveFixture, startLiveFixture } from './helpers';

let fx: LiveFixture;
let client: IdeaClient;
beforeAll(async () => {
  // code-server autosaves after a delay by default: typed text must stay unsaved here.
  fx = await startLiveFixture({ userSettings: { 'files.autoSave': 'off' } });
  client = await connect({ url: fx.host.url, token: fx.host.token, validate: true, timeoutMs: 60_000 });
});
afterAll(async () => {
  client?.close();
  await fx?.close();
});

const abs = (rel: string) => join(fx.ws.dir, rel);
const disk = (rel: string) => (existsSync(abs(rel)) ? readFileSync(abs(rel), 'utf8') : null);
/** Waits (bounded) until the active editor shows `text`; what it showed last otherwise. */
const editorShows = async (text: string, timeoutMs = 20_000) =>
  (await poll(
    async () => {
      const shown = await fx.host.workbench.visibleEditorText();
      return shown.includes(text) ? shown : undefined;
    },
    { timeoutMs, intervalMs: 100 },
  )) ?? (await fx.host.workbench.visibleEditorText());
const failure = (p: Promise<unknown>) =>
  p.then(
    () => 'no error',
    (e: Error & { code?: string }) => `${e.code}: ${e.message}`,
  );
const range = (line: number, character: number, endLine: number, endCharacter: number, newText: string) => ({
  line,
  character,
  endLine,
  endCharacter,
  newText,
});

describe('structural writes on open files (live)', () => {
  it('an open file edited shows the new text when the answer comes', { timeout: 120_000 }, async () => {
    await client.editApply({
      changes: [{ kind: 'create', filePath: 'src/open-me.ts', content: 'export const openMe = 1;\n' }],
    });
    await fx.host.workbench.openFile('src/open-me.ts');
    expect(await editorShows('openMe = 1')).toContain('openMe = 1');
    const r = await client.editApply({
      changes: [{ kind: 'edit', filePath: 'src/open-me.ts', edits: [range(0, 22, 0, 23, '2')] }],
    });
    expect(r.files.map((f) => f.change)).toEqual(['edited']);
    // The write path waited for the open document to show it (OpenDocuments.afterWrite).
    expect(await editorShows('openMe = 2', 5_000)).toContain('openMe = 2');
  });

  it('renamed while open: answered at once, and back in its editor when undone', { timeout: 120_000 }, async () => {
    const t0 = performance.now();
    const moved = await client.editApply({
      changes: [{ kind: 'rename', filePath: 'src/open-me.ts', newFilePath: 'src/moved/open-me.ts' }],
    });
    const ms = performance.now() - t0;
    expect(ms, 'nothing waits on the editor of a file that is gone').toBeLessThan(4_000);
    expect(disk('src/open-me.ts')).toBeNull();
    expect(disk('src/moved/open-me.ts')).toBe('export const openMe = 2;\n');
    const symbols = await client.navSymbols({ filePath: 'src/moved/open-me.ts' });
    expect(symbols.symbols.map((s) => s.name)).toEqual(['openMe']);
    await client.editUndo({ transactionId: moved.transactionId! });
    expect(disk('src/moved')).toBeNull();
    expect(disk('src/open-me.ts')).toBe('export const openMe = 2;\n');
    await fx.host.workbench.openFile('src/open-me.ts');
    expect(await editorShows('openMe = 2')).toContain('openMe = 2');
  });

  it('deleted while open, then created again: its editor shows the new file', { timeout: 120_000 }, async () => {
    await fx.host.workbench.openFile('src/open-me.ts');
    const t0 = performance.now();
    await client.editApply({ changes: [{ kind: 'delete', filePath: 'src/open-me.ts' }] });
    expect(performance.now() - t0).toBeLessThan(4_000);
    expect(disk('src/open-me.ts')).toBeNull();
    await client.editApply({
      changes: [{ kind: 'create', filePath: 'src/open-me.ts', content: 'export const openMe = 3;\n' }],
    });
    expect(await editorShows('openMe = 3')).toContain('openMe = 3');
  });

  it("diagnostics in the answer are the new text's, for a file open before the write, also when they clear", {
    timeout: 180_000,
  }, async () => {
    await client.editApply({
      changes: [{ kind: 'create', filePath: 'src/typed.ts', content: 'export const n: number = 1;\n' }],
    });
    await fx.host.workbench.openFile('src/typed.ts');
    await client.diagList({ filePath: 'src/typed.ts' }); // its language server has seen it
    const broken = await client.editApply({
      changes: [{ kind: 'edit', filePath: 'src/typed.ts', edits: [range(0, 25, 0, 26, "'one'")] }],
      diagnostics: true,
      diagnosticsWaitMs: 30_000,
    });
    expect(broken.diagnostics?.settled).toBe(true);
    expect(broken.diagnostics?.files).toEqual([
      {
        filePath: abs('src/typed.ts'),
        diagnostics: [expect.objectContaining({ severity: 'error', source: 'ts', code: '2322', line: 0 })],
      },
    ]);
    // Fixed again: the error shown until now is the old text's; the answer waits for the new report.
    const fixed = await client.editUndo({
      transactionId: broken.transactionId!,
      diagnostics: true,
      diagnosticsWaitMs: 30_000,
    });
    expect(fixed.diagnostics).toMatchObject({
      settled: true,
      files: [{ filePath: abs('src/typed.ts'), diagnostics: [] }],
    });
  });

  it('a file with unsaved changes is refused: renamed, deleted or moved with its folder; its text kept', {
    timeout: 120_000,
  }, async () => {
    await fx.host.workbench.openFile('src/open-me.ts');
    await fx.host.workbench.typeAtEnd('\n// typed, not saved');
    const dirty = await poll(async () => ((await fx.host.workbench.activeTabDirty()) ? true : undefined), {
      timeoutMs: 20_000,
      intervalMs: 50,
    });
    expect(dirty).toBe(true);
    const before = disk('src/open-me.ts');
    for (const change of [
      { kind: 'rename', filePath: 'src/open-me.ts', newFilePath: 'src/other.ts' },
      { kind: 'delete', filePath: 'src/open-me.ts' },
      { kind: 'rename', filePath: 'src', newFilePath: 'source' },
    ])
      for (const dryRun of [true, false])
        expect(await failure(client.editApply({ changes: [change as never], dryRun }))).toMatch(
          /^INVALID_REQUEST: change 0 .*open-me\.ts.*unsaved changes in the editor.*nothing was changed$/,
        );
    expect(disk('src/open-me.ts')).toBe(before);
    expect(existsSync(abs('source'))).toBe(false);
    expect(await fx.host.workbench.activeTabDirty()).toBe(true);
    expect(await fx.host.workbench.visibleEditorText()).toContain('typed, not saved');
  });
});
