// What the scale benches' write rows compare with: LSP text edits applied to a text, and the same bytes
// written crash-safe by the bench itself (server-core/write/atomic-file.ts's steps, no journal or
// local history), one file after another and all together: the floors of a write that must survive a
// crash, which plain writeFileSync is not.
import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface LspRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
export interface TextEdit {
  range: LspRange;
  newText: string;
}
/** An LSP WorkspaceEdit as typescript-language-server answers rename and willRenameFiles. */
export interface LspWorkspaceEdit {
  changes?: Record<string, TextEdit[]>;
  documentChanges?: { textDocument: { uri: string }; edits: TextEdit[] }[];
}

/** A workspace edit's text edits per file uri. */
export function editsPerFile(edit: LspWorkspaceEdit | null | undefined): [string, TextEdit[]][] {
  return edit?.documentChanges
    ? edit.documentChanges.map((x) => [x.textDocument.uri, x.edits])
    : Object.entries(edit?.changes ?? {});
}

/** LSP edits applied to a text (ranges in the original; applied from the end). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  const off = (p: { line: number; character: number }) => (starts[p.line] ?? text.length) + p.character;
  let out = text;
  for (const e of [...edits].sort((a, b) => off(b.range.start) - off(a.range.start)))
    out = out.slice(0, off(e.range.start)) + e.newText + out.slice(off(e.range.end));
  return out;
}

/** write/atomic-file.ts's steps for each file in turn: temp file written and fsynced, renamed over, folder fsynced. */
export async function durableOneByOne(files: readonly [string, string][]): Promise<void> {
  for (const [path, text] of files) {
    const tmp = `${path}.bench-tmp`;
    const fh = await open(tmp, 'w');
    await fh.writeFile(text);
    await fh.sync();
    await fh.close();
    await rename(tmp, path);
    await syncFolder(dirname(path));
  }
}

/**
 * All temp files written and fsynced concurrently, then renamed, then each folder fsynced once; `moves`
 * (renames of whole files, as a file move makes) happen with the renames, their folders synced too.
 */
export async function durableTogether(
  files: readonly [string, string][],
  moves: readonly [string, string][] = [],
): Promise<void> {
  await Promise.all(
    files.map(async ([path, text]) => {
      const fh = await open(`${path}.bench-tmp`, 'w');
      await fh.writeFile(text);
      await fh.sync();
      await fh.close();
    }),
  );
  for (const [path] of files) await rename(`${path}.bench-tmp`, path);
  for (const [from, to] of moves) await rename(from, to);
  const folders = [...files.map(([path]) => dirname(path)), ...moves.flatMap(([a, b]) => [dirname(a), dirname(b)])];
  await Promise.all([...new Set(folders)].map(syncFolder));
}

async function syncFolder(dir: string): Promise<void> {
  const dh = await open(dir, 'r');
  await dh.sync();
  await dh.close();
}
