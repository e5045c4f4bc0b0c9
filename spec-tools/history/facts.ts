// What each released protocol version changed on the wire, from the reference implementation's
// changelog (shared/protocol/history.md). The topics and error codes of each version follow from
// the `since` of the v0.1.6 index; the facts below are the rest. The one hand-written file that names
// protocol versions: everything else takes them from the spec (index `since`, clauses' `since`,
// spec/served.json through generated/current.ts).
export interface VersionFacts {
  version: string;
  /** The wire changes as the changelog states them (readings of our own are in derive.ts and docs/maintainers.md). */
  summary: string;
}

export const HISTORY_BASE = '0.1.6';

export const HISTORY: readonly VersionFacts[] = [
  {
    version: '0.1.0',
    summary:
      'WebSocket server on port 7200; handshake without token; topics edit/find, edit/replace, nav/definition, nav/references.',
  },
  { version: '0.1.1', summary: 'No wire change (packaging and timing fixes).' },
  {
    version: '0.1.2',
    summary: 'New topics diag/list and nav/symbols; relative filePaths resolve against the workspace root.',
  },
  {
    version: '0.1.3',
    summary:
      'Token auth (handshake token, authRequired, UNAUTHORIZED); port auto-increment on conflict (up to 10 ports).',
  },
  {
    version: '0.1.4',
    summary: 'New topics history/list, history/diff (fromIndex=0 only with toIndex=1) and fs/findFiles.',
  },
  {
    version: '0.1.5',
    summary: 'New topic history/rollback (filePath, toIndex; result filePath, toRef, restoredIndex).',
  },
  { version: '0.1.6', summary: 'New topics localhistory/list, localhistory/diff and localhistory/rollback.' },
];

/** Token auth and port auto-increment arrived together. */
export const AUTH_SINCE = '0.1.3';
/** The version whose history/diff accepted fromIndex=0 only together with toIndex=1. */
export const HISTORY_DIFF_RESTRICTED = '0.1.4';
/** Relative file paths are accepted from 0.1.2 on; before, a client file path is absolute. */
export const RELATIVE_PATHS_SINCE = '0.1.2';
/** Local history ids (and INVALID_REQUEST for unknown ones) arrived with the localhistory topics. */
export const LOCAL_HISTORY_SINCE = '0.1.6';
