// The files a server has open, kept in step with the disk: a file is opened (didOpen) on its first
// request (or when diagnostics/changed starts covering it) and re-synced before each later request when
// its mtime, size or inode changed and its text with them (didChange with the full text), or closed
// (didClose) when it is gone or leaves coverage. Hostile input: only regular files up to `maxBytes` are
// read.
import { statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { LspFileError } from './errors';

export interface OpenDocument {
  path: string;
  uri: string;
  languageId: string;
  version: number;
  text: string;
}

interface Tracked extends OpenDocument {
  mtimeMs: number;
  size: number;
  ino: number;
}

/** Default bound on a file sent to a server. */
export const MAX_DOCUMENT_BYTES = 8 * 1024 * 1024;
/**
 * Up to this many files a pass stats synchronously (a few µs each: cheaper than a thread-pool trip);
 * beyond it, through the thread pool, so a client that made the server open thousands of files does not
 * buy that much main-thread time with every later request.
 */
export const SYNC_STAT_MAX = 64;

export class Documents {
  private readonly open = new Map<string, Tracked>();
  /** The pass that runs next (not started yet): requests arriving meanwhile join it. */
  private next: { wanted: Map<string, string>; run: Promise<Map<string, OpenDocument | Error>> } | undefined;
  /** Passes run one at a time, so two requests for a new file open it once. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly notify: (method: string, params: unknown) => void,
    /** Called after each didOpen/didChange/didClose of a path (the diagnostics wait restarts there). */
    private readonly onSent: (path: string) => void,
    private readonly maxBytes = MAX_DOCUMENT_BYTES,
  ) {}

  /**
   * Opens `path` or brings it up to date with the disk; every other open document too (the server
   * answers from their text, not the disk's). Requests that arrive while a pass runs share the next
   * one: it starts after they arrived, so it sees the disk as they did, and a burst of requests costs
   * a pass or two instead of one each.
   */
  sync(path: string, languageId: string): Promise<OpenDocument> {
    if (!this.next) {
      const wanted = new Map<string, string>();
      const run = this.queue.then(() => {
        this.next = undefined;
        return this.pass(wanted);
      });
      this.next = { wanted, run };
      this.queue = run.catch(() => {});
    }
    if (!this.next.wanted.has(path)) this.next.wanted.set(path, languageId);
    return this.next.run.then((done) => {
      const doc = done.get(path);
      if (doc === undefined || doc instanceof Error) throw doc ?? new LspFileError(`cannot read ${path}`);
      return doc;
    });
  }

  /** One sync of the wanted paths and every open one, their stats and reads side by side. */
  private async pass(wanted: ReadonlyMap<string, string>): Promise<Map<string, OpenDocument | Error>> {
    const all = new Map(wanted);
    for (const doc of this.open.values()) if (!all.has(doc.path)) all.set(doc.path, doc.languageId);
    const done = new Map<string, OpenDocument | Error>();
    const sync = all.size <= SYNC_STAT_MAX;
    await Promise.all(
      [...all].map(([path, languageId]) =>
        this.syncOne(path, languageId, sync).then(
          (doc) => done.set(path, doc),
          (e: unknown) => done.set(path, e instanceof Error ? e : new Error(String(e))),
        ),
      ),
    );
    return done;
  }

  /** Closes `path` (didClose) when it is open: it left coverage (server-core/events/coverage.ts). */
  release(path: string): void {
    const known = this.open.get(path);
    if (known) this.close(known);
  }

  get(path: string): OpenDocument | undefined {
    return this.open.get(path);
  }

  paths(): string[] {
    return [...this.open.keys()];
  }

  private async syncOne(path: string, languageId: string, sync: boolean): Promise<OpenDocument> {
    const known = this.open.get(path);
    let st;
    try {
      // Synchronous for a few files: an unchanged file (nearly every one, nearly every time) then costs
      // no trip through the thread pool and back, which is most of a warm request's sync pass.
      st = sync ? statSync(path) : await stat(path);
    } catch (e) {
      if (known) this.close(known);
      throw new LspFileError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    if (!st.isFile()) {
      if (known) this.close(known);
      throw new LspFileError(`${path} is not a regular file`);
    }
    if (known && known.mtimeMs === st.mtimeMs && known.size === st.size && known.ino === st.ino) return known;
    if (st.size > this.maxBytes) {
      if (known) this.close(known);
      throw new LspFileError(
        `${path} is too large for the language server (${st.size} bytes, at most ${this.maxBytes})`,
      );
    }
    const text = await readFile(path, 'utf8');
    const uri = pathToFileURL(path).href;
    if (known && known.text === text) {
      // Rewritten with the same text (a checkout, a restore, a save without changes): the server's copy
      // is already right, so nothing is sent. A didChange would restart the diagnostics wait for a
      // publish the server may never make (typescript-language-server stays silent when an empty set
      // would replace an empty set), costing a diag/list the whole silent wait.
      const same: Tracked = { ...known, mtimeMs: st.mtimeMs, size: st.size, ino: st.ino };
      this.open.set(path, same);
      return same;
    }
    if (known) {
      const next: Tracked = {
        ...known,
        version: known.version + 1,
        text,
        mtimeMs: st.mtimeMs,
        size: st.size,
        ino: st.ino,
      };
      this.open.set(path, next);
      this.notify('textDocument/didChange', {
        textDocument: { uri, version: next.version },
        contentChanges: [{ text }],
      });
      this.onSent(path);
      return next;
    }
    const doc: Tracked = { path, uri, languageId, version: 1, text, mtimeMs: st.mtimeMs, size: st.size, ino: st.ino };
    this.open.set(path, doc);
    this.notify('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
    this.onSent(path);
    return doc;
  }

  private close(doc: Tracked): void {
    this.open.delete(doc.path);
    this.notify('textDocument/didClose', { textDocument: { uri: doc.uri } });
    this.onSent(doc.path);
  }
}

/** A file's text for a definition's `code`, or undefined when it is not a readable regular file within `maxBytes`. */
export async function readTextBounded(path: string, maxBytes = MAX_DOCUMENT_BYTES): Promise<string | undefined> {
  try {
    const st = await stat(path);
    if (!st.isFile() || st.size > maxBytes) return undefined;
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Lines in a text as VS Code counts them (line breaks \r\n, \n or \r, plus one). */
export function lineCount(text: string): number {
  return (text.match(/\r\n|\r|\n/g)?.length ?? 0) + 1;
}

/** The length of 0-based `line` of a text (without its line break); 0 past the end. Scans up to that line. */
export function lineLength(text: string, line: number): number {
  const breaks = /\r\n|\r|\n/g;
  let start = 0;
  for (let n = 0; n < line; n++) {
    const m = breaks.exec(text);
    if (!m) return 0;
    start = m.index + m[0].length;
  }
  breaks.lastIndex = start;
  const next = breaks.exec(text);
  return (next ? next.index : text.length) - start;
}
