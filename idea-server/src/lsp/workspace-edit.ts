// LSP WorkspaceEdits (a code action's edit, the workspace/applyEdit requests a command made, the edits
// of workspace/willRenameFiles) as the core's PlannedChange list (server-core/plan-builder.ts), which
// server-core's write path checks and writes as one transaction. Pure and defensive: a language server's answer is input like any other.
// A target that is not a file keeps its URI as its path (not absolute: the core refuses it as outside
// the workspace); a malformed edit fails the whole conversion, so nothing is half-planned.
import type { PlannedChange, Range } from '../../../server-core/host';
import { PlanBuilder } from '../../../server-core/plan-builder';
import { isRange, pathOfUri } from './convert';

type TextEdits = { range: Range; newText: string }[];

/** A language server's edit the conversion cannot take; nothing is planned from it. */
export class MalformedEditError extends Error {
  override readonly name = 'MalformedEditError';
}

const pathOf = (uri: unknown): string => pathOfUri(uri) ?? String(uri);

/** A server's TextEdit[] for `filePath`, checked (MalformedEditError otherwise). */
export function toTextEdits(filePath: string, list: unknown): TextEdits {
  if (!Array.isArray(list)) throw new MalformedEditError(`the language server gave no edit list for ${filePath}`);
  return list.map((e: unknown) => {
    const edit = e as { range?: unknown; newText?: unknown };
    if (typeof e !== 'object' || e === null || !isRange(edit.range) || typeof edit.newText !== 'string')
      throw new MalformedEditError(`the language server gave a malformed edit for ${filePath}`);
    return { range: edit.range, newText: edit.newText };
  });
}

const flag = (o: unknown, key: string): boolean | undefined => {
  const v = typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[key] : undefined;
  return typeof v === 'boolean' ? v : undefined;
};

/** One resource operation of `documentChanges` (LSP CreateFile / RenameFile / DeleteFile). */
function resourceOperation(c: Record<string, unknown>): Exclude<PlannedChange, { kind: 'edit' }> {
  const options = c.options;
  switch (c.kind) {
    case 'create': {
      const filePath = pathOf(c.uri);
      const overwrite = flag(options, 'overwrite');
      const ignoreIfExists = flag(options, 'ignoreIfExists');
      return {
        kind: 'create',
        filePath,
        ...(overwrite !== undefined && { overwrite }),
        ...(ignoreIfExists !== undefined && { ignoreIfExists }),
      };
    }
    case 'rename': {
      const overwrite = flag(options, 'overwrite');
      const ignoreIfExists = flag(options, 'ignoreIfExists');
      return {
        kind: 'rename',
        filePath: pathOf(c.oldUri),
        newFilePath: pathOf(c.newUri),
        ...(overwrite !== undefined && { overwrite }),
        ...(ignoreIfExists !== undefined && { ignoreIfExists }),
      };
    }
    case 'delete': {
      const recursive = flag(options, 'recursive');
      const ignoreIfNotExists = flag(options, 'ignoreIfNotExists');
      return {
        kind: 'delete',
        filePath: pathOf(c.uri),
        ...(recursive !== undefined && { recursive }),
        ...(ignoreIfNotExists !== undefined && { ignoreIfNotExists }),
      };
    }
    default:
      throw new MalformedEditError(
        `the language server gave an unknown file operation: ${String(c.kind).slice(0, 40)}`,
      );
  }
}

/**
 * WorkspaceEdits in the order the server gave them, as one plan (server-core/plan-builder.ts: text edits
 * of a file in one change, ranges in the text the server held, until a file operation on the path).
 */
export function toPlannedChanges(workspaceEdits: readonly unknown[]): PlannedChange[] {
  const plan = new PlanBuilder();
  const addEdits = (uri: unknown, list: unknown) => {
    const filePath = pathOf(uri);
    plan.edit(filePath, toTextEdits(filePath, list));
  };
  for (const we of workspaceEdits) {
    if (we === undefined || we === null) continue;
    if (typeof we !== 'object') throw new MalformedEditError('the language server gave a malformed workspace edit');
    const { documentChanges, changes } = we as { documentChanges?: unknown; changes?: unknown };
    if (Array.isArray(documentChanges)) {
      // documentChanges wins over changes where both are given (LSP).
      for (const c of documentChanges as unknown[]) {
        if (typeof c !== 'object' || c === null)
          throw new MalformedEditError('the language server gave a malformed document change');
        const change = c as Record<string, unknown>;
        if ('textDocument' in change) addEdits((change.textDocument as { uri?: unknown } | null)?.uri, change.edits);
        else plan.operation(resourceOperation(change));
      }
    } else if (typeof changes === 'object' && changes !== null) {
      for (const [uri, list] of Object.entries(changes)) addEdits(uri, list);
    }
  }
  return plan.plan();
}
