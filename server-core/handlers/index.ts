// The 13 topic handlers over a host (host.ts), keyed by the generated method names.
import { coreContext } from '../context';
import type { CoreHost } from '../host';
import type { Handlers } from '../protocol';
import { diagList } from './diag-list';
import { editFind } from './edit-find';
import { editReplace } from './edit-replace';
import { fsFindFiles } from './fs-find-files';
import { historyDiff } from './history-diff';
import { historyList } from './history-list';
import { historyRollback } from './history-rollback';
import { localhistoryDiff } from './localhistory-diff';
import { localhistoryList } from './localhistory-list';
import { localhistoryRollback } from './localhistory-rollback';
import { navDefinition } from './nav-definition';
import { navReferences } from './nav-references';
import { navSymbols } from './nav-symbols';

export function createCoreHandlers(host: CoreHost): Handlers {
  const svc = coreContext(host);
  return {
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
  };
}
