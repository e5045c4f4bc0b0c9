// edit/rename against a real VS Code (issue 21): a dry run leaves every byte of the workspace as it was
// (hashes before/after), and a rename whose edits reach a file with unsaved editor changes is refused,
// dry run or not, with nothing changed on disk and the editor's text kept.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type IdeaClient } from '../../generated/current';
import { poll } from '../../runtime/poll';
import { col, type LiveFixture, startLiveFixture } from './helpers';

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

/** sha256 of every file of the workspace but .git and .vscode (VS Code's and git's own bookkeeping). */
function hashes(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (dir === fx.ws.dir && (e.name === '.git' || e.name === '.vscode')) continue;
        walk(p);
      } else out[relative(fx.ws.dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(fx.ws.dir);
  return out;
}

const SHAPES = 'src/shapes.ts';
const at = () => ({ filePath: SHAPES, line: 23, character: col(fx.ws.dir, SHAPES, 23, 'totalArea') });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => 'no error',
    (e: Error & { code?: string }) => `${e.code}: ${e.message}`,
  );

// clause H16: a dry run writes nothing; a file with unsaved editor changes refuses the rename.
describe('edit/rename (live)', () => {
  it('a dry run answers the edits and diffs of every file and leaves every byte unchanged', {
    timeout: 120_000,
  }, async () => {
    const before = hashes();
    expect(Object.keys(before).length).toBeGreaterThan(10);
    const r = await client.editRename({ ...at(), newName: 'sumAreas', dryRun: true });
    expect(r.dryRun).toBe(true);
    expect(r.changedFiles).toEqual([]);
    expect(r.editCount).toBe(3);
    expect(r.files.map((f) => relative(fx.ws.dir, f.filePath)).sort()).toEqual(['src/main.ts', SHAPES]);
    expect(r.files.find((f) => f.filePath.endsWith('main.ts'))!.diff).toContain('+console.log(sumAreas(shapes));');
    expect(hashes()).toEqual(before);
  });

  it('a rename reaching a file with unsaved changes is refused, dry run or not; disk and editor keep theirs', {
    timeout: 120_000,
  }, async () => {
    await fx.host.workbench.openFile('src/main.ts');
    await fx.host.workbench.typeAtEnd('\n// typed, not saved');
    const dirty = await poll(async () => ((await fx.host.workbench.activeTabDirty()) ? true : undefined), {
      timeoutMs: 20_000,
      intervalMs: 50,
    });
    expect(dirty).toBe(true);
    const before = hashes();
    for (const dryRun of [false, true]) {
      expect(await failure(client.editRename({ ...at(), newName: 'sumAreas', dryRun }))).toMatch(
        /^HANDLER_ERROR: .*main\.ts has unsaved changes in the editor; save or revert them first\. Nothing was changed\.$/,
      );
    }
    expect(hashes()).toEqual(before);
    expect(await fx.host.workbench.activeTabDirty()).toBe(true);
    expect(await fx.host.workbench.visibleEditorText()).toContain('typed, not saved');
  });
});
