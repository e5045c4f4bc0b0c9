// The undo log (clause T57, H21): every committed write transaction's journal is kept as its record,
// <stateDir>/transactions/<id>/ with record.json (the journal's manifest: each file's path, real path,
// sha256 before and after, mode; each folder created or removed; the topic, label and the transaction
// it undid) and `originals` (the bytes of every file as it was before). The journal folder is moved
// here at the commit (write/journal.ts): keeping a transaction copies nothing. It lives in the
// server's own state folder, never in the workspace, and is bounded: at most UNDO_MAX_TRANSACTIONS
// transactions and UNDO_MAX_BYTES of originals, the oldest dropped first (the newest is always kept,
// whatever its size). It survives restarts: it is read from disk each time. Pure Node, no vscode import.
import { type FileHandle, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type JournalEntry, type Manifest, originalOf, RECORD, UNDO_ROOT } from './journal';

/** Most transactions kept (the spec asks for at least 50). */
export const UNDO_MAX_TRANSACTIONS = 100;
/** Most bytes of originals kept across them. */
export const UNDO_MAX_BYTES = 256 * 1024 * 1024;

/** A transaction id as the wire has it (TransactionId): also a safe folder name (no dot, no separator). */
export const TRANSACTION_ID = /^[A-Za-z0-9_-]{8,64}$/;

export interface KeptTransaction {
  id: string;
  record: Manifest;
  /** The topic that wrote it ("/app/vscode/edit/apply"). */
  topic: string;
  /** When it was written, ms since the epoch. */
  timestamp: number;
  /** The paths it wrote, created, deleted or removed, each once, in the record's order. */
  paths: string[];
}

const undoRoot = (stateDir: string) => join(stateDir, UNDO_ROOT);

/** The ids kept, newest first (ids begin with the time they were written, in ms). */
async function keptIds(stateDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(undoRoot(stateDir));
  } catch {
    return [];
  }
  const time = (id: string) => Number(id.split('-')[0]);
  return names.filter((n) => TRANSACTION_ID.test(n)).sort((a, b) => time(b) - time(a) || (a < b ? 1 : a > b ? -1 : 0));
}

function described(id: string, record: Manifest): KeptTransaction {
  const paths = [...new Set([...record.files.map((f) => f.path), ...(record.folders ?? []).map((f) => f.path)])];
  const timestamp = Date.parse(record.createdAt);
  return {
    id,
    record,
    topic: `/app/vscode/${record.what}`,
    timestamp: Number.isFinite(timestamp) ? timestamp : 0,
    paths,
  };
}

/** The kept transaction `id`, or undefined when the log does not hold it (never kept, dropped, unreadable). */
export async function keptTransaction(stateDir: string, id: string): Promise<KeptTransaction | undefined> {
  if (!TRANSACTION_ID.test(id)) return undefined;
  try {
    const record = JSON.parse(await readFile(join(undoRoot(stateDir), id, RECORD), 'utf8')) as Manifest;
    return Array.isArray(record.files) ? described(id, record) : undefined;
  } catch {
    return undefined;
  }
}

/** Every kept transaction, newest first (unreadable ones left out). */
export async function keptTransactions(stateDir: string): Promise<KeptTransaction[]> {
  const out: KeptTransaction[] = [];
  for (const id of await keptIds(stateDir)) {
    const t = await keptTransaction(stateDir, id);
    if (t) out.push(t);
  }
  return out;
}

/**
 * Which of `transactions` (all those kept) are undone: one whose undo is kept and not itself undone
 * (undoing an undo redoes what it undid).
 */
export function undoneIds(transactions: readonly KeptTransaction[]): Set<string> {
  const undoers = new Map<string, string[]>();
  for (const t of transactions)
    if (t.record.undoes !== undefined) undoers.set(t.record.undoes, [...(undoers.get(t.record.undoes) ?? []), t.id]);
  const memo = new Map<string, boolean>();
  // Undos only undo older transactions: the recursion ends (and the memo bounds it) without a cycle check.
  const undone = (id: string, depth: number): boolean => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const result = depth < transactions.length && (undoers.get(id) ?? []).some((u) => !undone(u, depth + 1));
    memo.set(id, result);
    return result;
  };
  return new Set(transactions.filter((t) => undone(t.id, 0)).map((t) => t.id));
}

/** The originals of a kept transaction, each read (and checked against its hash) when asked for. */
export async function withOriginals<T>(
  stateDir: string,
  id: string,
  use: (original: (f: JournalEntry) => Promise<Buffer | null>) => Promise<T>,
): Promise<T> {
  const dir = join(undoRoot(stateDir), id);
  let file: Promise<FileHandle> | undefined;
  try {
    return await use((f) => originalOf(dir, f, () => (file ??= open(join(dir, 'originals'), 'r'))));
  } finally {
    await (await file?.catch(() => undefined))?.close();
  }
}

/** Drops the oldest transactions beyond the bounds (see the header). Never throws: a failure is logged. */
export async function pruneUndoLog(
  stateDir: string,
  log: (m: string) => void,
  bounds: { transactions: number; bytes: number } = { transactions: UNDO_MAX_TRANSACTIONS, bytes: UNDO_MAX_BYTES },
): Promise<void> {
  try {
    const ids = await keptIds(stateDir);
    let bytes = 0;
    let kept = 0;
    const drop: string[] = [];
    for (const id of ids) {
      const size = await stat(join(undoRoot(stateDir), id, 'originals')).then(
        (s) => s.size,
        () => 0,
      );
      if (kept === 0 || (kept < bounds.transactions && bytes + size <= bounds.bytes)) {
        kept++;
        bytes += size;
      } else {
        // The oldest dropped first: once one does not fit, neither does anything older.
        drop.push(...ids.slice(ids.indexOf(id)));
        break;
      }
    }
    for (const id of drop) await rm(join(undoRoot(stateDir), id), { recursive: true, force: true });
  } catch (e) {
    log(`could not bound the undo log in ${undoRoot(stateDir)}: ${(e as Error).message}`);
  }
}
