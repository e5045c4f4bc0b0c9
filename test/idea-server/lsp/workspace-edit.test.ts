// The pure parts of idea-server's language edits: LSP WorkspaceEdits as the core's plan (order, one change
// per file while no file operation intervenes, junk refused), typescript-language-server's commands
// turned into tsserver questions or refused (H22), tsserver's FileCodeEdits as a WorkspaceEdit, and
// the indentation a file's text shows.
import { describe, expect, it } from 'vitest';
import { detectIndentation } from '../../../idea-server/src/lsp/formatting';
import {
  fileCodeEditsAsWorkspaceEdit,
  NotApplicableError,
  tsserverAnswerAsWorkspaceEdit,
  typeScriptCommand,
} from '../../../idea-server/src/lsp/typescript-commands';
import { MalformedEditError, toPlannedChanges } from '../../../idea-server/src/lsp/workspace-edit';

const at = (line: number, character: number) => ({ line, character });
const range = (l: number, c: number) => ({ start: at(l, c), end: at(l, c) });

describe('WorkspaceEdits as a plan', () => {
  it('documentChanges in order; a file operation between edits of a path starts a new change', () => {
    const plan = toPlannedChanges([
      {
        documentChanges: [
          { textDocument: { uri: 'file:///w/a.ts', version: 1 }, edits: [{ range: range(0, 0), newText: 'A' }] },
          { kind: 'create', uri: 'file:///w/n.ts', options: { ignoreIfExists: true, junk: 1 } },
          { textDocument: { uri: 'file:///w/n.ts', version: null }, edits: [{ range: range(0, 0), newText: 'N' }] },
          { kind: 'rename', oldUri: 'file:///w/a.ts', newUri: 'file:///w/b.ts', options: { overwrite: false } },
          { textDocument: { uri: 'file:///w/a.ts', version: 1 }, edits: [{ range: range(1, 0), newText: 'X' }] },
          { kind: 'delete', uri: 'file:///w/old', options: { recursive: true } },
        ],
      },
      // a later edit of a file already edited joins its change: both ranges are in the text the server held
      { changes: { 'file:///w/n.ts': [{ range: range(0, 0), newText: 'M' }] } },
    ]);
    expect(plan).toEqual([
      { kind: 'edit', filePath: '/w/a.ts', edits: [{ range: range(0, 0), newText: 'A' }] },
      { kind: 'create', filePath: '/w/n.ts', ignoreIfExists: true },
      {
        kind: 'edit',
        filePath: '/w/n.ts',
        edits: [
          { range: range(0, 0), newText: 'N' },
          { range: range(0, 0), newText: 'M' },
        ],
      },
      { kind: 'rename', filePath: '/w/a.ts', newFilePath: '/w/b.ts', overwrite: false },
      { kind: 'edit', filePath: '/w/a.ts', edits: [{ range: range(1, 0), newText: 'X' }] },
      { kind: 'delete', filePath: '/w/old', recursive: true },
    ]);
  });

  it('a non-file target keeps its URI (the core refuses it); empty and absent edits plan nothing', () => {
    expect(toPlannedChanges([{ changes: { 'untitled:1': [{ range: range(0, 0), newText: 'y' }] } }])).toEqual([
      { kind: 'edit', filePath: 'untitled:1', edits: [{ range: range(0, 0), newText: 'y' }] },
    ]);
    expect(toPlannedChanges([null, undefined, { changes: { 'file:///w/a.ts': [] } }, {}])).toEqual([]);
  });

  it('junk is refused whole: nothing is half-planned', () => {
    for (const junk of [
      [5],
      [{ changes: { 'file:///w/a.ts': [{ range: 1, newText: 'x' }] } }],
      [{ changes: { 'file:///w/a.ts': [{ range: range(0, 0) }] } }],
      [{ changes: { 'file:///w/a.ts': 'x' } }],
      [{ documentChanges: [null] }],
      [{ documentChanges: [{ kind: 'chmod', uri: 'file:///w/a' }] }],
      // a snippet edit has no newText
      [
        {
          documentChanges: [{ textDocument: { uri: 'file:///w/a.ts' }, edits: [{ range: range(0, 0), snippet: {} }] }],
        },
      ],
    ])
      expect(() => toPlannedChanges(junk)).toThrow(MalformedEditError);
  });
});

// clause H22: a command is asked of tsserver in its place, or refused; nothing else runs.
describe("typescript-language-server's commands (H22)", () => {
  const refactor = {
    file: '/w/d.ts',
    startLine: 1,
    startOffset: 1,
    endLine: 3,
    endOffset: 2,
    refactor: 'Move to a new file',
    action: 'Move to a new file',
  };

  it('a refactoring and organize imports become tsserver questions; their arguments only', () => {
    expect(typeScriptCommand('_typescript.applyRefactoring', [{ ...refactor, extra: 'x' }])).toEqual({
      kind: 'tsserver',
      request: 'getEditsForRefactor',
      args: refactor,
    });
    expect(typeScriptCommand('_typescript.organizeImports', ['/w/a.ts', { skipDestructiveCodeActions: true }])).toEqual(
      {
        kind: 'tsserver',
        request: 'organizeImports',
        args: {
          scope: { type: 'file', args: { file: '/w/a.ts' } },
          skipDestructiveCodeActions: true,
          mode: 'SortAndCombine',
        },
      },
    );
    expect(typeScriptCommand('_typescript.organizeImports', ['/w/a.ts'])).toMatchObject({ args: { mode: 'All' } });
    expect(typeScriptCommand('_typescript.organizeImports', ['/w/a.ts', { mode: 'RemoveUnused' }])).toMatchObject({
      args: { mode: 'RemoveUnused' },
    });
  });

  it("a quick fix's command runs nothing, unless it carries tsserver commands; the editor's are refused", () => {
    expect(typeScriptCommand('_typescript.applyCodeActionCommand', [{ action: { commands: [] } }])).toEqual({
      kind: 'nothing',
    });
    expect(typeScriptCommand('_typescript.applyCodeActionCommand', [{ action: { commands: [{}] } }])).toMatchObject({
      kind: 'refused',
    });
    expect(typeScriptCommand('_typescript.applyFixAllCodeAction', [])).toEqual({ kind: 'nothing' });
    for (const c of ['_typescript.selectRefactoring', '_typescript.applyRenameFile', '_typescript.configurePlugin'])
      expect(typeScriptCommand(c, [])).toMatchObject({ kind: 'refused' });
    expect(typeScriptCommand('_typescript.applyRefactoring', ['junk'])).toMatchObject({ kind: 'refused' });
    expect(typeScriptCommand('fake.apply', [])).toBeUndefined();
  });

  it("tsserver's edits: a file that does not exist is created first; not applicable says why", () => {
    const body = {
      edits: [
        {
          fileName: '/w/d.ts',
          textChanges: [{ start: { line: 1, offset: 1 }, end: { line: 5, offset: 1 }, newText: '' }],
        },
        {
          fileName: '/w/helper.ts',
          textChanges: [{ start: { line: 0, offset: 0 }, end: { line: 0, offset: 0 }, newText: 'h' }],
        },
      ],
    };
    const exists = (p: string) => p === '/w/d.ts';
    expect(fileCodeEditsAsWorkspaceEdit(body.edits, exists)).toEqual({
      documentChanges: [
        {
          textDocument: { uri: 'file:///w/d.ts', version: null },
          edits: [{ range: { start: at(0, 0), end: at(4, 0) }, newText: '' }],
        },
        { kind: 'create', uri: 'file:///w/helper.ts' },
        { textDocument: { uri: 'file:///w/helper.ts', version: null }, edits: [{ range: range(0, 0), newText: 'h' }] },
      ],
    });
    expect(() => tsserverAnswerAsWorkspaceEdit('getEditsForRefactor', { body: { notApplicableReason: 'no' } })).toThrow(
      NotApplicableError,
    );
    expect(tsserverAnswerAsWorkspaceEdit('organizeImports', { body: [] })).toEqual({ documentChanges: [] });
    expect(() => fileCodeEditsAsWorkspaceEdit([{ fileName: '/w/a.ts', textChanges: [{ start: 1 }] }])).toThrow(
      /malformed/,
    );
    expect(() => fileCodeEditsAsWorkspaceEdit('x')).toThrow(/no edits/);
  });
});

describe('the indentation a text shows', () => {
  it('spaces by their usual step, tabs when most lines use them, nothing from a flat text', () => {
    expect(detectIndentation('a {\n  b {\n    c\n  }\n}\n')).toEqual({ tabSize: 2, insertSpaces: true });
    expect(detectIndentation('a {\n    b\n}\nc {\n    d {\n        e\n    }\n}\n')).toEqual({
      tabSize: 4,
      insertSpaces: true,
    });
    expect(detectIndentation('a {\n\tb {\n\t\tc\n\t}\n}\n')).toEqual({ tabSize: 4, insertSpaces: false });
    expect(detectIndentation('a\nb\n\n')).toBeUndefined();
  });
});
