// The extension's code-action rules (extension/src/code-actions.ts) with a stand-in `vscode` module:
// which commands an action may carry and still be applied as its edit alone (the TypeScript extension's
// telemetry, rename box and follow-up-free quick fixes), which make it disabled (any other: it would
// run in the editor, outside the transaction, H22), and VS Code's WorkspaceEdit as the core's plan,
// file operations in order.
import { describe, expect, it, vi } from 'vitest';

const vscode = vi.hoisted(() => {
  class Uri {
    constructor(
      readonly scheme: string,
      readonly fsPath: string,
    ) {}
    static file(p: string) {
      return new Uri('file', p);
    }
    toString() {
      return `${this.scheme}:${this.fsPath}`;
    }
  }
  class Position {
    constructor(
      readonly line: number,
      readonly character: number,
    ) {}
  }
  class Range {
    constructor(
      readonly start: Position,
      readonly end: Position,
    ) {}
  }
  class TextEdit {
    constructor(
      readonly range: Range,
      readonly newText: string,
    ) {}
  }
  class Diagnostic {}
  return { Uri, Position, Range, TextEdit, Diagnostic, workspace: {}, commands: {}, languages: {} };
});

vi.mock('vscode', () => vscode);

const { planOf, refusedCommand } = await import('../../extension/src/code-actions');

const cmd = (command: string, ...args: unknown[]) => ({ title: '', command, arguments: args });
const range = (l: number, c: number) => new vscode.Range(new vscode.Position(l, c), new vscode.Position(l, c));

// clause H22: in VS Code no command at all; an action needing one is offered disabled.
describe('commands an action carries (H22)', () => {
  it("the TypeScript extension's telemetry, rename box and follow-up-free fixes are left out", () => {
    for (const c of [
      undefined,
      cmd('_typescript.didApplyRefactoring', { action: 'x' }),
      cmd('_typescript.didOrganizeImports'),
      cmd('editor.action.rename', [vscode.Uri.file('/w/a.ts'), new vscode.Position(1, 1)]),
      cmd('_typescript.applyCodeActionCommand', { action: { commands: [] } }),
      cmd('_typescript.applyFixAllCodeAction', { action: { combinedResponse: { body: { commands: [] } } } }),
      cmd('_typescript.compositeCommand', cmd('_typescript.didApplyRefactoring'), cmd('editor.action.rename')),
    ])
      expect(refusedCommand(c)).toBeUndefined();
  });

  it('anything else disables the action, with why', () => {
    expect(refusedCommand(cmd('_typescript.applyCodeActionCommand', { action: { commands: [{}] } }))).toMatch(
      /installing a package/,
    );
    expect(refusedCommand(cmd('_typescript.moveToFileRefactoring'))).toBe(
      'its command _typescript.moveToFileRefactoring runs in the editor, outside the transaction',
    );
    expect(refusedCommand(cmd('eslint.applySingleFix'))).toMatch(/eslint\.applySingleFix runs in the editor/);
    expect(
      refusedCommand(cmd('_typescript.compositeCommand', cmd('_typescript.didApplyRefactoring'), cmd('workbench.x'))),
    ).toMatch(/workbench\.x/);
    expect(refusedCommand(cmd('_typescript.compositeCommand', 'junk'))).toBe('a malformed command');
  });
});

describe("VS Code's WorkspaceEdit as a plan", () => {
  it('file operations and text edits in order, options kept; edits of a file joined until an operation', async () => {
    const a = vscode.Uri.file('/w/a.ts');
    const n = vscode.Uri.file('/w/n.ts');
    const entries = [
      { _type: 2, uri: a, edit: new vscode.TextEdit(range(0, 0), 'A') },
      { _type: 1, from: undefined, to: n, options: { ignoreIfExists: true } },
      { _type: 2, uri: n, edit: new vscode.TextEdit(range(0, 0), 'N') },
      { _type: 2, uri: a, edit: new vscode.TextEdit(range(2, 0), 'B') },
      { _type: 1, from: a, to: vscode.Uri.file('/w/b.ts'), options: { overwrite: false } },
      { _type: 1, from: vscode.Uri.file('/w/old'), to: undefined, options: { recursive: true } },
    ];
    const plan = await planOf({ _allEntries: () => entries } as never);
    const at = (l: number) => ({ start: { line: l, character: 0 }, end: { line: l, character: 0 } });
    expect(plan).toEqual([
      {
        kind: 'edit',
        filePath: '/w/a.ts',
        edits: [
          { range: at(0), newText: 'A' },
          { range: at(2), newText: 'B' },
        ],
      },
      { kind: 'create', filePath: '/w/n.ts', ignoreIfExists: true },
      { kind: 'edit', filePath: '/w/n.ts', edits: [{ range: at(0), newText: 'N' }] },
      { kind: 'rename', filePath: '/w/a.ts', newFilePath: '/w/b.ts', overwrite: false },
      { kind: 'delete', filePath: '/w/old', recursive: true },
    ]);
  });

  it('a snippet or notebook edit is refused', async () => {
    const snippet = { _type: 6, uri: vscode.Uri.file('/w/a.ts'), range: range(0, 0), edit: {} };
    await expect(planOf({ _allEntries: () => [snippet] } as never)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });
});
