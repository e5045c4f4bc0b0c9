// The topic handlers over a host (host.ts), keyed by the generated method names: the 13 every host
// serves, v0.1.8's nav/findSymbol and nav/referencingSymbols (document symbols and references are
// every host's) and its writes (edit/apply, edit/undo, edit/transactions: the write path is the core's),
// plus v0.1.7's language topics, v0.1.8's nav/workspaceSymbols and nav/callHierarchy when its
// LanguageFeatures has them, and the editor topics when it has an editor. A server advertises exactly
// the topics it has handlers for (servedTopics).
import { coreContext } from '../context';
import { withCoverage } from '../events/coverage';
import type { CoreHost } from '../host';
import { type Handlers, SERVER_PROTOCOL } from '../protocol';
import { diagList } from './diag-list';
import { editApply } from './edit-apply';
import { editFind } from './edit-find';
import { editRename } from './edit-rename';
import { editReplace } from './edit-replace';
import { editTransactions } from './edit-transactions';
import { editUndo } from './edit-undo';
import { editorContext } from './editor-context';
import { editorOpen } from './editor-open';
import { fsFindFiles } from './fs-find-files';
import { historyDiff } from './history-diff';
import { historyList } from './history-list';
import { historyRollback } from './history-rollback';
import { localhistoryDiff } from './localhistory-diff';
import { localhistoryList } from './localhistory-list';
import { localhistoryRollback } from './localhistory-rollback';
import { navCallHierarchy } from './nav-call-hierarchy';
import { navDefinition } from './nav-definition';
import { navFindSymbol } from './nav-find-symbol';
import { navHover } from './nav-hover';
import { navImplementation } from './nav-implementation';
import { navReferences } from './nav-references';
import { navReferencingSymbols } from './nav-referencing-symbols';
import { navSymbols } from './nav-symbols';
import { navTypeDefinition } from './nav-type-definition';
import { navWorkspaceSymbols } from './nav-workspace-symbols';
import { withWriteDiagnostics } from './write-diagnostics';

export function createCoreHandlers(host: CoreHost): Partial<Handlers> {
  const svc = coreContext(host);
  const lang = host.language;
  const { editor } = host;
  // The files requests name or write are what diagnostics/changed covers (events/coverage.ts); a write
  // asked for them answers the diagnostics of what it wrote (write-diagnostics.ts).
  return withCoverage(
    host,
    withWriteDiagnostics(svc, {
      editFind: editFind(svc),
      editReplace: editReplace(svc),
      navDefinition: navDefinition(svc),
      navReferences: navReferences(svc),
      diagList: diagList(svc),
      navSymbols: navSymbols(svc),
      historyList: historyList(svc),
      historyDiff: historyDiff(svc),
      historyRollback: historyRollback(svc),
      fsFindFiles: fsFindFiles(svc),
      localhistoryList: localhistoryList(svc),
      localhistoryDiff: localhistoryDiff(svc),
      localhistoryRollback: localhistoryRollback(svc),
      navFindSymbol: navFindSymbol(svc),
      navReferencingSymbols: navReferencingSymbols(svc),
      editApply: editApply(svc),
      editUndo: editUndo(svc),
      editTransactions: editTransactions(svc),
      ...(lang.hover && { navHover: navHover(svc, lang.hover.bind(lang)) }),
      ...(lang.typeDefinition && { navTypeDefinition: navTypeDefinition(svc, lang.typeDefinition.bind(lang)) }),
      ...(lang.implementation && { navImplementation: navImplementation(svc, lang.implementation.bind(lang)) }),
      ...(lang.rename && { editRename: editRename(svc, lang.rename.bind(lang)) }),
      ...(lang.workspaceSymbols && {
        navWorkspaceSymbols: navWorkspaceSymbols(svc, lang.workspaceSymbols.bind(lang)),
      }),
      ...(lang.callHierarchy && { navCallHierarchy: navCallHierarchy(svc, lang.callHierarchy) }),
      ...(editor && { editorContext: editorContext(svc, editor), editorOpen: editorOpen(svc, editor) }),
    }),
  );
}

/** The topics `handlers` serve, in the topic index's order: what a server's handshake advertises. */
export function servedTopics(handlers: Partial<Handlers>): string[] {
  return Object.entries(SERVER_PROTOCOL.spec.routes)
    .filter(([, r]) => typeof handlers[r.method as keyof Handlers] === 'function')
    .map(([topic]) => topic);
}
