// Which files diagnostics/changed covers beyond those open in an editor (clause T35): the files a client
// named as the filePath of diag/list or a position topic (nav/*, editor/open, edit/rename) and those a
// write topic changed, for COVER_MS after the last time, the COVER_FILES most recent of them: exactly the
// spec's minimum, so a server keeps no more of its language servers' work alive than it must.
// VS Code-free, one instance per server. A server gives its platform part (CoveragePlatform: how a file
// is opened so that its language server reports on it, and closed again); this keeps the bounded list,
// decides what is opened and when a file leaves, and never delays or fails a request: the handlers only
// record names (withCoverage, after a write's answer), the opening runs later, one batch at a time.
import { isAbsolute, resolve } from 'node:path';
import type { FileCoverage, WorkspaceFolders } from '../host';
import { resolveWorkspacePath } from '../path-guard';
import type { Handlers } from '../protocol';

/** How long a file stays covered after it was last named or written (the spec's "at least 2 minutes"). */
export const COVER_MS = 2 * 60_000;
/** How many files are covered at most, the most recently named or written (the spec's "50 at least"). */
export const COVER_FILES = 50;
/** A covered file the platform closed by itself is re-opened at most this often (no open/close loop)… */
export const REOPEN_MIN_MS = 10_000;
/**
 * …and this long after it closed: its language server clears the closed file's diagnostics first, which
 * is then taken for the file leaving coverage (not reported), and the diagnostics it reports once the
 * file is open again are compared with what was last reported (the same: no event).
 */
export const REOPEN_DELAY_MS = 1000;
/**
 * A covered file named again within this long is not checked again (`reportable` resolves its symlinks
 * and matches the exclude settings, which EventScope re-reads no more often than this either): a client
 * asking about one file over and over pays the check once a second, not per request.
 */
export const RECHECK_MS = 1000;

export type CoverReason = 'named' | 'written';

export interface CoveredFile {
  path: string;
  /**
   * Why it is opened now: a write changed it, or a request named it (also a file re-opened after the
   * platform closed it: a tab the person closed is not brought back for a write from before).
   */
  reason: CoverReason;
}

/** A server's part: what "covering" a file means on its platform. */
export interface CoveragePlatform {
  /**
   * Opens the files so that their language servers report on them (and brings open ones up to date
   * with the disk). Bounded in time; a file it cannot open is skipped. Called with one batch at a time.
   */
  open(files: readonly CoveredFile[]): Promise<void>;
  /** The files left coverage (COVER_MS since they were last named or written, or beyond COVER_FILES). */
  release?(paths: readonly string[]): void;
}

interface Entry {
  at: number;
  /** When `reportable` last said yes. */
  checked: number;
  reopenedAt?: number;
}

export class Coverage implements FileCoverage {
  /** Covered files, the least recently named or written first. At most `files` of them. */
  private readonly covered = new Map<string, Entry>();
  /** Files to open next (at most `files`), while a batch is being opened. */
  private readonly pending = new Map<string, CoverReason>();
  private opening = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(
    /** Whether events may name the file (EventScope.reportable): one they may not is never opened. */
    private readonly reportable: (path: string) => boolean,
    private readonly platform: CoveragePlatform,
    private readonly log: (message: string) => void,
    private readonly limits: { ms: number; files: number; reopenDelayMs?: number } = {
      ms: COVER_MS,
      files: COVER_FILES,
    },
    private readonly now: () => number = Date.now,
  ) {}

  touched(paths: readonly string[], reason: CoverReason): void {
    if (this.disposed) return;
    const now = this.now();
    // A write of thousands of files covers its last `files`: the rest would be evicted at once anyway.
    for (const path of paths.slice(-this.limits.files)) {
      if (typeof path !== 'string') continue;
      const known = this.covered.get(path);
      const recent = known !== undefined && now - known.checked < RECHECK_MS;
      if (!recent && !this.reportable(path)) continue;
      this.covered.delete(path); // re-inserted: the Map's order is the order of last use
      this.covered.set(path, { at: now, checked: recent ? known.checked : now });
      this.pending.delete(path);
      this.pending.set(path, reason);
    }
    this.evict();
    this.drain();
  }

  /** Whether `path` is covered now (named or written less than COVER_MS ago, among the last COVER_FILES). */
  covers(path: string): boolean {
    const e = this.covered.get(path);
    return e !== undefined && this.now() - e.at < this.limits.ms;
  }

  /**
   * The platform's document of `path` closed by itself (VS Code disposes documents an extension opened
   * after a few minutes, or when more than 50 are held): while the file is still covered, it is opened
   * again REOPEN_DELAY_MS later, at most once per REOPEN_MIN_MS.
   */
  closed(path: string): void {
    const e = this.covered.get(path);
    if (this.disposed || !e || !this.covers(path)) return;
    const now = this.now();
    if (e.reopenedAt !== undefined && now - e.reopenedAt < REOPEN_MIN_MS) return;
    e.reopenedAt = now;
    const timer = setTimeout(() => {
      if (this.disposed || this.covered.get(path) !== e) return; // left coverage, or named again meanwhile
      this.pending.delete(path);
      this.pending.set(path, 'named');
      this.drain();
    }, this.limits.reopenDelayMs ?? REOPEN_DELAY_MS);
    timer.unref?.();
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
    this.covered.clear();
  }

  /** Drops the files beyond `files` and those not named or written for `ms`; arms the timer for the next. */
  private evict(): void {
    const now = this.now();
    const gone: string[] = [];
    for (const [path, e] of this.covered) {
      if (this.covered.size - gone.length <= this.limits.files && now - e.at < this.limits.ms) break;
      gone.push(path);
    }
    for (const path of gone) {
      this.covered.delete(path);
      this.pending.delete(path);
    }
    if (gone.length > 0) {
      try {
        this.platform.release?.(gone);
      } catch (e) {
        this.log(`coverage: releasing ${gone.length} file(s) failed: ${(e as Error).message}`);
      }
    }
    const oldest = this.covered.values().next().value;
    if (oldest === undefined || this.disposed) {
      clearTimeout(this.timer);
      this.timer = undefined;
      return;
    }
    // An armed timer stays (each naming would otherwise re-arm it): it is due for a file at least as old
    // as the oldest now, so at worst it fires early, drops nothing and is armed for the oldest file then.
    if (this.timer !== undefined) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.evict();
      },
      Math.max(0, oldest.at + this.limits.ms - now) + 1,
    );
    this.timer.unref?.();
  }

  /** Opens what is pending, one batch at a time: a slow language server start holds one batch, not many. */
  private drain(): void {
    if (this.opening || this.disposed || this.pending.size === 0) return;
    const batch = [...this.pending].map(([path, reason]) => ({ path, reason }));
    this.pending.clear();
    this.opening = true;
    Promise.resolve()
      .then(() => this.platform.open(batch))
      .catch((e: unknown) => this.log(`coverage: opening ${batch.length} file(s) failed: ${(e as Error).message}`))
      .finally(() => {
        this.opening = false;
        this.drain();
      });
  }
}

/** The handlers whose filePath names a file a client works on (clause T35's position topics and diag/list). */
const NAMING: ReadonlySet<keyof Handlers> = new Set<keyof Handlers>([
  'diagList',
  'navDefinition',
  'navReferences',
  'navSymbols',
  'navHover',
  'navTypeDefinition',
  'navImplementation',
  'editorOpen',
  'editRename',
  'navReferencingSymbols',
  'navCallHierarchy',
]);

type Results = { [K in keyof Handlers]: Awaited<ReturnType<Handlers[K]>> };

/** The files a structural write's answer (edit/apply and those built on it) leaves: each file that exists after it. */
export const filesLeft = (r: {
  files: readonly { filePath: string; newFilePath?: string; sha256After: string | null }[];
}): string[] => r.files.flatMap((f) => (f.sha256After === null ? [] : [f.newFilePath ?? f.filePath]));

/** The files a write topic's answer says it changed or created (and that exist after it). */
export const filesWritten: { [K in keyof Handlers]?: (result: Results[K]) => readonly string[] } = {
  editReplace: (r) => r.affectedFiles,
  editRename: (r) => r.changedFiles,
  historyRollback: (r) => [r.filePath],
  localhistoryRollback: (r) => [r.filePath],
  editApply: (r) => (r.dryRun ? [] : filesLeft(r)),
  editUndo: (r) => (r.dryRun ? [] : filesLeft(r)),
};

/** Runs `fn` after the current request's answer went out (the session sends it from a promise reaction). */
function later(fn: () => void): void {
  setImmediate(() => {
    try {
      fn();
    } catch {
      // coverage is best effort: it never fails anything
    }
  });
}

function namedPaths(params: unknown, folders: WorkspaceFolders): string[] {
  const raw = (params as { filePath?: unknown } | undefined)?.filePath;
  const list = Array.isArray(raw) ? raw : [raw];
  const out: string[] = [];
  for (const p of list) {
    if (typeof p !== 'string') continue;
    // An absolute path goes on as it is: whether it is in the workspace is `reportable`'s to say (Coverage
    // asks it, resolving symlinks, at most once a second for a file named again and again). Resolving
    // it here too was two more realpaths per request.
    if (isAbsolute(p)) {
      out.push(resolve(p));
      continue;
    }
    try {
      out.push(resolveWorkspacePath(p, folders.paths()).path);
    } catch {
      // outside the workspace: the request itself says so
    }
  }
  return out;
}

/**
 * The one place requests feed coverage: `handlers` with those that name or write files wrapped. A
 * naming request records its files as it starts (so they stay covered while it runs); a write records
 * the files its answer names once it succeeded, after the answer went out. `host.coverage` is read at
 * each call (a server sets it once its event machinery exists); without it the handlers run as given.
 */
export function withCoverage(
  host: { readonly coverage?: FileCoverage; readonly folders: WorkspaceFolders },
  handlers: Partial<Handlers>,
): Partial<Handlers> {
  const out: Record<string, unknown> = { ...handlers };
  for (const method of Object.keys(handlers) as (keyof Handlers)[]) {
    const names = NAMING.has(method);
    const writes = filesWritten[method] as ((result: unknown) => readonly string[]) | undefined;
    if (!names && !writes) continue;
    const handler = handlers[method] as unknown as (params: unknown, ctx: unknown) => Promise<unknown>;
    out[method] = (params: unknown, ctx: unknown) => {
      if (names && host.coverage) later(() => host.coverage?.touched(namedPaths(params, host.folders), 'named'));
      const answer = handler(params, ctx);
      if (!writes) return answer;
      return answer.then((result) => {
        if (host.coverage) later(() => host.coverage?.touched(writes(result), 'written'));
        return result;
      });
    };
  }
  return out as Partial<Handlers>;
}
