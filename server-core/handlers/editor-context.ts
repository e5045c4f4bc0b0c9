// /app/vscode/editor/context — what the person at the editor is looking at: the active editor and its
// selections (0-based, primary first), the visible editors, and the open tabs with their dirty flags.
// Only files inside a workspace folder are listed: other paths are not the client's business.
import type { CoreContext } from '../context';
import type { EditorHost, EditorView } from '../host';
import { isInWorkspace } from '../path-guard';
import type { EditorContextResult, Handlers } from '../protocol';
import { wireRange } from './document';

type Editor = EditorContextResult['visibleEditors'][number];

function editorOf(e: EditorView): Editor {
  return {
    filePath: e.filePath,
    languageId: e.languageId,
    isDirty: e.isDirty,
    selections: e.selections.map((s) => ({ ...wireRange(s), isReversed: s.isReversed })),
    visibleRanges: e.visibleRanges.map(wireRange),
  };
}

export function editorContext(svc: CoreContext, editor: EditorHost): Handlers['editorContext'] {
  return async () => {
    const folders = svc.folders.paths();
    const shown = (p: string) => isInWorkspace(p, folders);
    const now = editor.context();
    return {
      activeEditor: now.active && shown(now.active.filePath) ? editorOf(now.active) : null,
      visibleEditors: now.visible.filter((e) => shown(e.filePath)).map(editorOf),
      tabs: now.tabs
        .filter((t) => shown(t.filePath))
        .map((t) => ({
          filePath: t.filePath,
          group: t.group,
          isActive: t.isActive,
          isDirty: t.isDirty,
          isPreview: t.isPreview,
          isPinned: t.isPinned,
        })),
    };
  };
}
