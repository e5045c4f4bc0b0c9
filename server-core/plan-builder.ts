// A language server's workspace edit as the core's plan (host.ts PlannedChange), built in the order the
// server gave its parts, by both hosts (idea-server from LSP's WorkspaceEdit, the extension from VS
// Code's). The one rule: text edits of a file go into one change per file, every range in the text the
// server held, since the server sees none of them applied while they are collected (nothing is written
// until the transaction), so a later edit of a file is computed on the same text as an earlier one. A
// file operation on a path starts a new change for it (edits after a create are in the new, empty file).
import type { PlannedChange, Range } from './host';

type EditChange = Extract<PlannedChange, { kind: 'edit' }>;

export class PlanBuilder {
  private readonly changes: PlannedChange[] = [];
  /** The open edit change of each path: text edits of that path join it. */
  private readonly editing = new Map<string, EditChange>();

  edit(filePath: string, edits: readonly { range: Range; newText: string }[]): this {
    const open = this.editing.get(filePath);
    if (open) open.edits.push(...edits);
    else {
      const change: EditChange = { kind: 'edit', filePath, edits: [...edits] };
      this.editing.set(filePath, change);
      this.changes.push(change);
    }
    return this;
  }

  /** A file operation (create, rename, delete): later edits of the paths it names start afresh. */
  operation(op: Exclude<PlannedChange, EditChange>): this {
    for (const p of op.kind === 'rename' ? [op.filePath, op.newFilePath] : [op.filePath]) this.editing.delete(p);
    this.changes.push(op);
    return this;
  }

  /** The plan, without edit changes that hold no edit. */
  plan(): PlannedChange[] {
    return this.changes.filter((c) => c.kind !== 'edit' || c.edits.length > 0);
  }
}
