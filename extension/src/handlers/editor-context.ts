// /app/vscode/editor/context — what the person at the editor is looking at: the active editor and its
// selections (0-based, primary first), the visible editors, and the open tabs with their dirty flags.
// Only files inside a workspace folder are listed: other paths are not the client's business.
import * as vscode from 'vscode';
import { isInWorkspace } from '../path-guard';
import type { EditorContextResult, Handlers } from '../protocol';
import type { Services } from '../services';
import { wireRange } from './position';

type Editor = EditorContextResult['visibleEditors'][number];
type Tab = EditorContextResult['tabs'][number];

function editorOf(e: vscode.TextEditor): Editor {
  return {
    filePath: e.document.uri.fsPath,
    languageId: e.document.languageId,
    isDirty: e.document.isDirty,
    selections: e.selections.map((s) => ({ ...wireRange(s), isReversed: s.isReversed })),
    visibleRanges: e.visibleRanges.map(wireRange),
  };
}

export function editorContext(svc: Services): Handlers['editorContext'] {
  return async () => {
    const folders = svc.folders();
    const shown = (u: vscode.Uri) => u.scheme === 'file' && isInWorkspace(u.fsPath, folders);
    const active = vscode.window.activeTextEditor;
    const tabs: Tab[] = [];
    for (const group of vscode.window.tabGroups.all)
      for (const tab of group.tabs) {
        if (!(tab.input instanceof vscode.TabInputText) || !shown(tab.input.uri)) continue;
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
      activeEditor: active && shown(active.document.uri) ? editorOf(active) : null,
      visibleEditors: vscode.window.visibleTextEditors.filter((e) => shown(e.document.uri)).map(editorOf),
      tabs,
    };
  };
}
