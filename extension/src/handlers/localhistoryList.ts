// /app/vscode/localhistory/list — VS Code's local history of the file, newest first; none = [].
import type { LocalhistoryListParams, LocalhistoryListResult } from '../../../generated/v0.1.6/types';
import { formatUtcLabel } from '../localHistory';
import { resolvePath, type Services } from '../services';

export function localhistoryList(svc: Services) {
  return async (params: LocalhistoryListParams): Promise<LocalhistoryListResult> => {
    const { path } = resolvePath(svc, params.filePath);
    const entries = svc.localHistory.list(path).map((e) => ({
      id: e.id, timestamp: e.timestamp, timestampLabel: formatUtcLabel(e.timestamp), ...(e.source ? { source: e.source } : {}),
    }));
    return { entries, totalCount: entries.length };
  };
}
