// A plan (server-core/host.ts PlannedChange[]) applied to texts in memory, for tests to see what it would
// write: files by name relative to `root`, each change's ranges in the text as it was before that
// change, insertions at one position in their order. Tests only: the server writes through write/.
import { relative } from 'node:path';
import type { PlannedChange, Position } from '../../../server-core/host';

function offsetOf(text: string, p: Position): number {
  let offset = 0;
  for (let line = 0; line < p.line; line++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) throw new Error(`line ${p.line} is past the end`);
    offset = next + 1;
  }
  return offset + p.character;
}

export function applyPlanInMemory(
  plan: readonly PlannedChange[],
  files: Readonly<Record<string, string>>,
  root: string,
): Record<string, string> {
  const out: Record<string, string> = { ...files };
  const name = (path: string) => relative(root, path);
  for (const change of plan) {
    const key = name(change.filePath);
    switch (change.kind) {
      case 'create':
        out[key] = '';
        break;
      case 'delete':
        delete out[key];
        break;
      case 'rename':
        out[name(change.newFilePath)] = out[key]!;
        delete out[key];
        break;
      case 'edit': {
        const text = out[key];
        if (text === undefined) throw new Error(`edit of a missing file: ${key}`);
        const edits = change.edits
          .map((e, i) => ({ start: offsetOf(text, e.range.start), end: offsetOf(text, e.range.end), e, i }))
          .sort((a, b) => b.start - a.start || b.i - a.i);
        let next = text;
        for (const { start, end, e } of edits) next = next.slice(0, start) + e.newText + next.slice(end);
        out[key] = next;
      }
    }
  }
  return out;
}
