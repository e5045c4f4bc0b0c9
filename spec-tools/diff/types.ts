// The vocabulary of a spec diff: every change carries a level saying whom it breaks.
export type Level = 'ERR' | 'WARN' | 'INFO';

/** ERR: breaks existing clients or servers. WARN: existing code keeps working but must handle
 *  something new or behaves differently. INFO: an addition nobody has to handle. */
const LEVELS: readonly Level[] = ['ERR', 'WARN', 'INFO'];

export function levelRank(l: Level): number {
  return l === 'ERR' ? 3 : l === 'WARN' ? 2 : 1;
}

export function isLevel(x: string): x is Level {
  return (LEVELS as readonly string[]).includes(x);
}

/** Who produces the value a schema describes: what a client sends (the server accepts it) or
 *  what a server returns (the client accepts it). Breaking is the opposite in each direction. */
export type Direction = 'request' | 'response';

/** How the set of values a schema allows moved. */
export type Effect = 'narrowed' | 'widened' | 'changed';

export interface Change {
  level: Level;
  /** Stable machine-readable kind, e.g. "param-required-added", "topic-added". */
  kind: string;
  /** What part of the protocol: "topic /app/vscode/edit/find params", "handshake request", "error codes". */
  location: string;
  /** Field path inside the location, e.g. "matches[].filePath"; "" for the location itself. */
  path: string;
  message: string;
  /** For a change inside a `$ref` target (location "$defs/<name>"): every place it reaches, each
   *  with the level and consequence it has there. */
  uses?: Use[];
}

/** One place a change of a `$ref` target reaches. */
export interface Use {
  level: Level;
  kind: string;
  location: string;
  path: string;
  message: string;
}

export interface DiffReport {
  from: string;
  to: string;
  changes: Change[];
}

export function countByLevel(changes: readonly Change[]): Record<Level, number> {
  const out: Record<Level, number> = { ERR: 0, WARN: 0, INFO: 0 };
  for (const c of changes) out[c.level]++;
  return out;
}

/** True when some change is at `failOn` or more severe. */
export function failsAt(changes: readonly Change[], failOn: Level): boolean {
  return changes.some((c) => levelRank(c.level) >= levelRank(failOn));
}
