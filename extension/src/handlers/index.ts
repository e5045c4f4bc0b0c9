// The 13 topic handlers, keyed by the generated method names.
import type { Handlers } from '../protocol';
import type { DiagnosticsTracker } from '../diagnosticsWait';
import type { Services } from '../services';
import { diagList } from './diagList';
import { editFind } from './editFind';
import { editReplace } from './editReplace';
import { fsFindFiles } from './fsFindFiles';
import { historyDiff } from './historyDiff';
import { historyList } from './historyList';
import { historyRollback } from './historyRollback';
import { localhistoryDiff } from './localhistoryDiff';
import { localhistoryList } from './localhistoryList';
import { localhistoryRollback } from './localhistoryRollback';
import { navDefinition } from './navDefinition';
import { navReferences } from './navReferences';
import { navSymbols } from './navSymbols';

export function createHandlers(svc: Services, tracker: DiagnosticsTracker): Handlers {
  return {
    editFind: editFind(svc),
    editReplace: editReplace(svc),
    navDefinition: navDefinition(svc),
    navReferences: navReferences(svc),
    diagList: diagList(svc, tracker),
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
