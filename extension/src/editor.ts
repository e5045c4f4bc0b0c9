// The core's EditorHost (server-core/host.ts) over VS Code's window: what the person is looking at
// (editor/context) and showing them a file (editor/open).
import * as vscode from 'vscode';
import type { EditorHost, EditorTab, EditorView } from '../../server-core/host';
import { openDocument } from './documents';
import { plain, vscodeRange } from './plain-range';
import { withTimeout } from './with-timeout';

/** Bound on showing the editor: without a connected workbench it never completes. */
const SHOW_TIMEOUT_MS = 10_000;

function viewOf(e: vscode.TextEditor): EditorView {
  return {
    filePath: e.document.uri.fsPath,
    languageId: e.document.languageId,
    isDirty: e.document.isDirty,
    selections: e.selections.map((s) => ({ ...plain(s), isReversed: s.isReversed })),
    visibleRanges: e.visibleRanges.map(plain),
  };
}

const isFile = (u: vscode.Uri) => u.scheme === 'file';

let showing: Promise<unknown> = Promise.resolve();

/**
 * Runs `show` once every earlier one has ended. Two editor/open requests in flight make VS Code
 * supersede the first open, which then fails with "Could NOT open editor" (seen with concurrent
 * editor/open cases), so they take turns; each turn is bounded by SHOW_TIMEOUT_MS. Diagnostics' tab
 * shows stay concurrent: they are bounded and their failure is harmless.
 */
function inTurn<T>(show: () => Promise<T>): Promise<T> {
  const mine = showing.then(show, show);
  showing = mine.catch(() => undefined);
  return mine;
}

export const vscodeEditor: EditorHost = {
  context() {
    const active = vscode.window.activeTextEditor;
    const tabs: EditorTab[] = [];
    for (const group of vscode.window.tabGroups.all)
      for (const tab of group.tabs) {
        if (!(tab.input instanceof vscode.TabInputText) || !isFile(tab.input.uri)) continue;
        tabs.push({
          filePath: tab.input.uri.fsPath,
          group: group.viewColumn,
          isActive: tab.isActive,
          isDirty: tab.isDirty,
          isPreview: tab.isPreview,
          isPinned: tab.isPinned,
        });
      }
    return {
      active: active && isFile(active.document.uri) ? viewOf(active) : undefined,
      visible: vscode.window.visibleTextEditors.filter((e) => isFile(e.document.uri)).map(viewOf),
      tabs,
    };
  },

  async open(path, selection, options) {
    const doc = await openDocument(path);
    // validateRange clamps to the document VS Code holds (the core checked the lines of the same text).
    const range = doc.validateRange(vscodeRange(selection));
    return inTurn(async () => {
      const editor = await withTimeout(
        vscode.window.showTextDocument(doc, {
          selection: range,
          preserveFocus: options.preserveFocus,
          ...(options.preview === undefined ? {} : { preview: options.preview }),
        }),
        SHOW_TIMEOUT_MS,
        `showing ${path}`,
      );
      // Set it again here: the editor's selection reaches this host asynchronously, so right after
      // showTextDocument it may still be the one an earlier open left (seen on VS Code 1.139).
      editor.selection = new vscode.Selection(range.start, range.end);
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      return plain(editor.selection);
    });
  },
};
