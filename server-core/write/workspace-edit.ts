// A workspace edit planned before anything is written (clause T52, H21, H22): the changes (text edits of
// a file, files and folders created, renamed and deleted) are played in order over a view of the
// workspace (the disk, read when first needed, under what the earlier changes did), each checked, and
// what they add up to becomes the plan of one transaction (write/transaction.ts): each path's state
// before and after, files written, created and deleted, folders created and removed. A change that
// cannot be made refuses the whole edit, before anything is written, with INVALID_REQUEST naming the
// change's index, its file and the reason (HANDLER_ERROR when the disk fails). Also what the answer
// says about each file (its change, diff and sha256 before and after).
// Renaming and deleting work on the bytes: a file moved is created at its new place with its bytes and
// mode and deleted at the old one, so the journal (and edit/undo) restore it like any other write, and
// a folder moved is its folders made and its files moved one by one. Symlinks: every path is confined
// to the workspace folders with its symlinks resolved (path-guard.ts); a symlink is never renamed,
// deleted or created (one inside a folder to move or delete refuses it), an edit through one edits the
// file it points to (inside the workspace).
import { lstat, readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { sha256 } from '../../runtime/hash';
import { ProtocolError as SessionProtocolError } from '../../runtime/server-session';
import { type CoreContext, resolvePath } from '../context';
import { invalidRequest, ProtocolError } from '../errors';
import { WRITE_CONCURRENCY } from './bounded';
import { fileDiff } from './diff';
import { applyTextEdits, decodeText, encodeText, lineBreakOf, type RangeTextEdit, TextEditError } from './file-text';
import { protectedReason, realFolders } from './protected-paths';
import { type PlannedFolder, type PlannedWrite, transactionOrder } from './transaction';

/** Most bytes one write may rewrite (each file at the larger of its sizes; a file moved counts at both places). */
export const MAX_WRITE_BYTES = 64 * 1024 * 1024;
/** Most text edits of one file in one write. */
export const MAX_EDITS_PER_FILE = 10_000;
/** Most files and folders one write may touch (a folder moved or deleted counts everything in it). */
export const MAX_WRITE_PATHS = 20_000;

/** A symbol edit as the wire has it (clause T53); compiled into range edits by the caller's hook. */
export interface SymbolTextEdit {
  namePath: string;
  operation: 'replace' | 'insertBefore' | 'insertAfter' | 'delete';
  newText?: string;
}

/**
 * One change of a workspace edit: the wire's WorkspaceChange with ranges as Range, or a host's
 * PlannedChange (host.ts) as it is. Paths absolute or relative to a workspace folder.
 */
export type WorkspaceChangeInput =
  | { kind: 'edit'; filePath: string; sha256?: string; edits: readonly (RangeTextEdit | SymbolTextEdit)[] }
  | { kind: 'create'; filePath: string; content?: string; overwrite?: boolean; ignoreIfExists?: boolean }
  | { kind: 'createFolder'; filePath: string; ignoreIfExists?: boolean }
  | {
      kind: 'rename';
      filePath: string;
      newFilePath: string;
      sha256?: string;
      overwrite?: boolean;
      ignoreIfExists?: boolean;
    }
  | { kind: 'delete'; filePath: string; sha256?: string; recursive?: boolean; ignoreIfNotExists?: boolean };

/** What the answer says about one file or folder (the wire's FileWrite). */
export interface FileWriteAnswer {
  filePath: string;
  change: 'edited' | 'created' | 'deleted' | 'renamed' | 'createdFolder' | 'deletedFolder';
  newFilePath?: string;
  diff: string;
  sha256Before: string | null;
  sha256After: string | null;
}

/** The file a symbol edit is compiled against, as the change sees it. */
export interface SymbolEditFile {
  /** The file as named (absolute). */
  path: string;
  /** Its text as this change sees it (byte order mark removed). */
  text: string;
  /** True when an earlier change of this edit changed it: a language server knows only the disk's text. */
  changedByEarlier: boolean;
}

export interface PlanOptions {
  /** Positions past a line's end: refused ('strict', a client's edit) or clamped ('clamp', a language server's). */
  positions: 'strict' | 'clamp';
  /** Compiles a change's symbol edits into range edits (T53); without it a symbol edit is refused. */
  symbolEdits?(file: SymbolEditFile, edits: readonly SymbolTextEdit[], signal: AbortSignal): Promise<RangeTextEdit[]>;
  signal: AbortSignal;
}

export interface WorkspacePlan {
  writes: PlannedWrite[];
  folders: PlannedFolder[];
  /** Every file and folder changed, in the order of the changes that first touched them. */
  files: FileWriteAnswer[];
  /** The paths written, created, deleted or renamed (both paths), each once. */
  changedFiles: string[];
  /** Text edits applied (range and symbol edits, as given). */
  editCount: number;
}

/** What a path holds in the view: the disk's, or what an earlier change made of it. */
type Node = FileNode | { kind: 'folder'; mode: number } | { kind: 'none' };

interface FileNode {
  kind: 'file';
  bytes: Buffer;
  mode: number;
  origin: Origin;
}

/** A file through the changes (it may move), for the answer: where it was and what it held. */
interface Origin {
  /** The change that first touched it (set when first used). */
  change: number;
  path: string;
  real: string;
  /** null: a change of this edit created it. */
  before: Buffer | null;
}

const NONE: Node = { kind: 'none' };
const isInside = (child: string, parent: string) => child.startsWith(parent.endsWith(sep) ? parent : `${parent}${sep}`);

/** A refusal of change `index` (INVALID_REQUEST: what the client asked cannot be done). */
function refuse(index: number, kind: string, path: string, reason: string): ProtocolError {
  return invalidRequest(`change ${index} (${kind} ${path}): ${reason}; nothing was changed`);
}

/** The disk failed under change `index` (HANDLER_ERROR). */
function diskFailed(index: number, path: string, e: unknown): ProtocolError {
  const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  return new ProtocolError('HANDLER_ERROR', `change ${index}: cannot read ${path} (${why}); nothing was changed`);
}

/** Plans `changes` (see the header); throws the refusal of the first change that cannot be made. */
export async function planWorkspaceEdit(
  svc: CoreContext,
  changes: readonly WorkspaceChangeInput[],
  opts: PlanOptions,
): Promise<WorkspacePlan> {
  return new Planner(svc, opts).plan(changes);
}

class Planner {
  /** What the changes made of each real path. */
  private readonly view = new Map<string, Node>();
  /** What the disk held at each real path the view has, before any change. */
  private readonly initial = new Map<string, Node>();
  /** Real path → the path as named (absolute, symlinks kept), for messages and answers. */
  private readonly named = new Map<string, string>();
  /** The real paths of the view under each folder (its children's names). */
  private readonly childrenInView = new Map<string, Set<string>>();
  /** The change that last touched each real path (a folder made or removed is answered with it). */
  private readonly touchedBy = new Map<string, number>();
  private readonly origins: Origin[] = [];
  /** Folders renamed by a change, for the answer: one entry, not each folder made and removed. */
  private readonly folderRenames: { change: number; from: string; to: string }[] = [];
  /** Files edited by an earlier change (a symbol edit needs the disk's text). */
  private readonly edited = new Set<string>();
  private readonly editsPerFile = new Map<string, number>();
  private readonly folders: string[];
  private readonly folderReals: string[];
  private bytesRead = 0;
  private editCount = 0;

  constructor(
    private readonly svc: CoreContext,
    private readonly opts: PlanOptions,
  ) {
    this.folders = svc.folders.paths();
    this.folderReals = realFolders(this.folders);
    // Paths reached through a folder are named under the folder as it was opened.
    for (const [k, f] of this.folders.entries()) this.named.set(this.folderReals[k]!, resolve(f));
  }

  async plan(changes: readonly WorkspaceChangeInput[]): Promise<WorkspacePlan> {
    try {
      for (const [i, c] of changes.entries()) {
        this.opts.signal.throwIfAborted();
        this.readAhead(changes, i);
        await this.change(i, c);
      }
    } finally {
      await Promise.allSettled(this.ahead.values()); // no read of this plan still runs when it returns
    }
    return this.result();
  }

  /** Reads started ahead of their change (the disk's state of a path a change names). */
  private readonly ahead = new Map<string, Promise<Node>>();
  private aheadUpTo = 0;

  /**
   * Starts reading the files the next changes name (up to WRITE_CONCURRENCY changes ahead), so that
   * many reads are in flight at once rather than one per change; each is used (and its failure thrown)
   * only when its change asks for it. Paths that do not resolve are left to their change to refuse.
   */
  private readAhead(changes: readonly WorkspaceChangeInput[], from: number): void {
    for (; this.aheadUpTo < Math.min(changes.length, from + WRITE_CONCURRENCY); this.aheadUpTo++) {
      const k = this.aheadUpTo;
      let real: string;
      try {
        real = resolvePath(this.svc, changes[k]!.filePath).real;
      } catch {
        continue;
      }
      if (this.view.has(real) || this.ahead.has(real)) continue;
      const read = this.readDisk(k, real);
      read.catch(() => undefined); // thrown when used
      this.ahead.set(real, read);
    }
  }

  // --- the view -------------------------------------------------------------------------------------

  /** Resolves a client path (confined to the workspace folders, H22) and refuses a protected one (H11). */
  private resolve(i: number, kind: string, filePath: string): { path: string; real: string } {
    let resolved: { path: string; real: string };
    try {
      resolved = resolvePath(this.svc, filePath);
    } catch (e) {
      throw refuse(i, kind, filePath, (e as Error).message);
    }
    this.guard(i, kind, resolved.path, resolved.real);
    if (!this.named.has(resolved.real)) this.named.set(resolved.real, resolved.path);
    return resolved;
  }

  /** Refuses a protected path, one outside the workspace folders (a path reached through a folder), and a file with unsaved changes. */
  private guard(i: number, kind: string, path: string, real: string): void {
    if (!this.folderReals.some((f) => real === f || isInside(real, f)))
      throw refuse(i, kind, path, 'it is outside every workspace folder');
    const reason = protectedReason(real, this.folders, this.folderReals);
    if (reason) throw refuse(i, kind, path, `it may not be written by IDEA clients: ${reason}`);
    if (this.svc.documents.isDirty(path))
      throw refuse(i, kind, path, 'it has unsaved changes in the editor; save or revert them first');
  }

  /** What `real` holds now in the view (the disk's when no change touched it). */
  private async get(i: number, real: string): Promise<Node> {
    const known = this.view.get(real);
    if (known) return known;
    const ahead = this.ahead.get(real);
    const disk = await (ahead ?? this.readDisk(i, real));
    const raced = this.view.get(real); // another change's get of the same path, while this one waited
    if (raced) return raced;
    if (disk.kind === 'file') {
      disk.origin.change = i;
      this.origins.push(disk.origin);
    }
    this.initial.set(real, disk);
    this.view.set(real, disk);
    this.index(real);
    return disk;
  }

  private async readDisk(i: number, real: string): Promise<Node> {
    let st: Awaited<ReturnType<typeof lstat>>;
    try {
      st = await lstat(real);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR')
        return NONE;
      throw diskFailed(i, this.nameOf(real), e);
    }
    if (st.isDirectory()) return { kind: 'folder', mode: st.mode & 0o7777 };
    if (!st.isFile())
      throw refuse(
        i,
        'path',
        this.nameOf(real),
        st.isSymbolicLink() ? 'it is a symbolic link, which IDEA never writes' : 'it is not a regular file',
      );
    this.bytesRead += st.size;
    if (this.bytesRead > MAX_WRITE_BYTES)
      throw refuse(
        i,
        'path',
        this.nameOf(real),
        `the edit reads more than the server's bound of ${mb(MAX_WRITE_BYTES)}`,
      );
    let bytes: Buffer;
    try {
      bytes = await readFile(real);
    } catch (e) {
      throw diskFailed(i, this.nameOf(real), e);
    }
    // Its change is the one that first uses it (get), which also lists it among the origins.
    const origin: Origin = { change: i, path: this.nameOf(real), real, before: bytes };
    return { kind: 'file', bytes, mode: st.mode & 0o7777, origin };
  }

  private set(i: number, real: string, node: Node): void {
    this.view.set(real, node);
    this.touchedBy.set(real, i);
    this.index(real);
    if (this.view.size > MAX_WRITE_PATHS)
      throw refuse(
        i,
        'path',
        this.nameOf(real),
        `the edit touches more than the server's bound of ${MAX_WRITE_PATHS} paths`,
      );
  }

  private index(real: string): void {
    const parent = dirname(real);
    let names = this.childrenInView.get(parent);
    if (!names) this.childrenInView.set(parent, (names = new Set()));
    names.add(basename(real));
  }

  private nameOf(real: string): string {
    const known = this.named.get(real);
    if (known !== undefined) return known;
    // A path reached through a folder: named under the folder's own name.
    const parent = dirname(real);
    if (parent === real) return real;
    const name = join(this.nameOf(parent), basename(real));
    this.named.set(real, name);
    return name;
  }

  /** The names in folder `real` now (the disk's, under what the changes did). */
  private async children(i: number, real: string): Promise<string[]> {
    const names = new Set<string>();
    if (this.initial.get(real)?.kind === 'folder') {
      try {
        for (const n of await readdir(real)) names.add(n);
      } catch (e) {
        throw diskFailed(i, this.nameOf(real), e);
      }
    }
    for (const n of this.childrenInView.get(real) ?? []) names.add(n);
    const out: string[] = [];
    for (const n of [...names].sort()) if ((await this.get(i, join(real, n))).kind !== 'none') out.push(n);
    return out;
  }

  /** Everything in folder `real`, parents before their contents (bounded by MAX_WRITE_PATHS), each guarded. */
  private async contents(i: number, kind: string, real: string): Promise<{ real: string; node: Node }[]> {
    const out: { real: string; node: Node }[] = [];
    const walk = async (dir: string) => {
      for (const name of await this.children(i, dir)) {
        const child = join(dir, name);
        const node = await this.get(i, child);
        this.guard(i, kind, this.nameOf(child), child);
        out.push({ real: child, node });
        if (out.length > MAX_WRITE_PATHS)
          throw refuse(i, kind, this.nameOf(real), `it holds more than the server's bound of ${MAX_WRITE_PATHS} paths`);
        if (node.kind === 'folder') await walk(child);
      }
    };
    await walk(real);
    return out;
  }

  /** Makes the missing folders above `real` (as createFolder would), refusing a file in the way. */
  private async makeParents(i: number, kind: string, real: string): Promise<void> {
    const missing: string[] = [];
    for (let p = dirname(real); dirname(p) !== p; p = dirname(p)) {
      const node = await this.get(i, p);
      if (node.kind === 'folder') break;
      if (node.kind === 'file') throw refuse(i, kind, this.nameOf(real), `${this.nameOf(p)} is a file, not a folder`);
      missing.push(p);
    }
    for (const p of missing.reverse()) {
      this.guard(i, kind, this.nameOf(p), p);
      this.set(i, p, { kind: 'folder', mode: 0o755 });
    }
  }

  /** A path the client named must not be a symbolic link where IDEA would rename or delete it. */
  private async notALink(i: number, kind: string, path: string): Promise<void> {
    const st = await lstat(path).catch(() => null);
    if (st?.isSymbolicLink())
      throw refuse(i, kind, path, 'it is a symbolic link, which IDEA never renames, deletes or creates');
  }

  private checkGuard(i: number, kind: string, path: string, node: FileNode, guard: string | undefined): void {
    if (guard === undefined) return;
    const now = sha256(node.bytes);
    if (now !== guard)
      throw refuse(
        i,
        kind,
        path,
        `its sha256 guard ${guard} is not the sha256 of the file's bytes (${now}): it changed since the edit was computed`,
      );
  }

  // --- the changes ----------------------------------------------------------------------------------

  private async change(i: number, c: WorkspaceChangeInput): Promise<void> {
    switch (c.kind) {
      case 'edit':
        return this.edit(i, c);
      case 'create':
        return this.create(i, c);
      case 'createFolder':
        return this.createFolder(i, c);
      case 'rename':
        return this.rename(i, c);
      case 'delete':
        return this.delete(i, c);
    }
  }

  private async edit(i: number, c: Extract<WorkspaceChangeInput, { kind: 'edit' }>): Promise<void> {
    const { path, real } = this.resolve(i, 'edit', c.filePath);
    const node = await this.get(i, real);
    if (node.kind === 'none') throw refuse(i, 'edit', path, 'the file does not exist');
    if (node.kind === 'folder') throw refuse(i, 'edit', path, 'it is a folder');
    this.checkGuard(i, 'edit', path, node, c.sha256);
    const decoded = decodeText(node.bytes);
    if (!decoded) throw refuse(i, 'edit', path, 'the file is not UTF-8 text');
    const total = (this.editsPerFile.get(real) ?? 0) + c.edits.length;
    if (total > MAX_EDITS_PER_FILE)
      throw refuse(i, 'edit', path, `more than the server's bound of ${MAX_EDITS_PER_FILE} edits of one file`);
    this.editsPerFile.set(real, total);
    // Range edits as given; each symbol edit compiled into one range edit in its place (same index).
    const symbolAt: number[] = [];
    const symbol: SymbolTextEdit[] = [];
    for (const [k, e] of c.edits.entries())
      if (!('range' in e)) {
        symbolAt.push(k);
        symbol.push(e);
      }
    const edits = [...c.edits] as RangeTextEdit[];
    if (symbol.length > 0) {
      const compiled = await this.compileSymbols(
        i,
        path,
        {
          path,
          text: decoded.text,
          // A language server knows the disk: a file an earlier change edited, created or moved here differs.
          changedByEarlier: this.edited.has(real) || node.origin.before === null || node.origin.real !== real,
        },
        symbol,
      );
      for (const [j, k] of symbolAt.entries()) edits[k] = compiled[j]!;
    }
    let text: string;
    try {
      text = applyTextEdits(decoded.text, edits, { positions: this.opts.positions, eol: lineBreakOf(decoded.text) });
    } catch (e) {
      if (e instanceof TextEditError) {
        const symbolic = symbolAt.includes(e.edit)
          ? ` (the symbol edit of ${symbol[symbolAt.indexOf(e.edit)]!.namePath})`
          : '';
        throw refuse(i, 'edit', path, `edit ${e.edit}${symbolic}: ${e.reason}`);
      }
      throw e;
    }
    this.editCount += c.edits.length;
    this.edited.add(real);
    this.set(i, real, { ...node, bytes: encodeText(text, decoded.bom) });
  }

  /** The change's symbol edits as range edits (the caller's compiler); its refusals name the change too. */
  private async compileSymbols(
    i: number,
    path: string,
    file: SymbolEditFile,
    edits: readonly SymbolTextEdit[],
  ): Promise<RangeTextEdit[]> {
    if (!this.opts.symbolEdits) throw refuse(i, 'edit', path, 'symbol edits are not served here');
    try {
      return await this.opts.symbolEdits(file, edits, this.opts.signal);
    } catch (e) {
      if (e instanceof SessionProtocolError) {
        const why = e.message.endsWith('nothing was changed') ? e.message : `${e.message}; nothing was changed`;
        throw new SessionProtocolError(e.code, `change ${i} (edit ${path}): ${why}`, e.details);
      }
      throw e;
    }
  }

  private async create(i: number, c: Extract<WorkspaceChangeInput, { kind: 'create' }>): Promise<void> {
    const { path, real } = this.resolve(i, 'create', c.filePath);
    const node = await this.get(i, real);
    const bytes = Buffer.from(c.content ?? '', 'utf8');
    if (node.kind === 'folder') throw refuse(i, 'create', path, 'a folder is there');
    if (node.kind === 'file') {
      if (c.overwrite) {
        this.edited.add(real);
        this.set(i, real, { ...node, bytes });
        return;
      }
      if (c.ignoreIfExists) return;
      throw refuse(i, 'create', path, 'the file exists (overwrite replaces it, ignoreIfExists leaves it)');
    }
    await this.makeParents(i, 'create', real);
    const origin: Origin = { change: i, path, real, before: null };
    this.origins.push(origin);
    this.set(i, real, { kind: 'file', bytes, mode: 0o644, origin });
  }

  private async createFolder(i: number, c: Extract<WorkspaceChangeInput, { kind: 'createFolder' }>): Promise<void> {
    const { path, real } = this.resolve(i, 'createFolder', c.filePath);
    const node = await this.get(i, real);
    if (node.kind === 'file') throw refuse(i, 'createFolder', path, 'a file is there');
    if (node.kind === 'folder') {
      if (c.ignoreIfExists) return;
      throw refuse(i, 'createFolder', path, 'the folder exists (ignoreIfExists leaves it)');
    }
    await this.makeParents(i, 'createFolder', real);
    this.set(i, real, { kind: 'folder', mode: 0o755 });
  }

  private async rename(i: number, c: Extract<WorkspaceChangeInput, { kind: 'rename' }>): Promise<void> {
    const from = this.resolve(i, 'rename', c.filePath);
    await this.notALink(i, 'rename', from.path);
    const node = await this.get(i, from.real);
    if (node.kind === 'none') throw refuse(i, 'rename', from.path, 'it does not exist');
    if (node.kind === 'folder' && c.sha256 !== undefined)
      throw refuse(i, 'rename', from.path, 'it is a folder; sha256 guards a file');
    if (node.kind === 'file') this.checkGuard(i, 'rename', from.path, node, c.sha256);
    const to = this.resolve(i, 'rename', c.newFilePath);
    if (to.real === from.real) throw refuse(i, 'rename', from.path, `${to.path} is the same path`);
    if (isInside(to.real, from.real)) throw refuse(i, 'rename', from.path, `${to.path} is inside it`);
    await this.notALink(i, 'rename', to.path);
    const there = await this.get(i, to.real);
    if (there.kind !== 'none') {
      if (c.overwrite) {
        if (there.kind !== 'file' || node.kind !== 'file')
          throw refuse(i, 'rename', from.path, `${to.path} exists and is a folder; overwrite replaces a file only`);
      } else if (c.ignoreIfExists) return;
      else throw refuse(i, 'rename', from.path, `${to.path} exists (overwrite replaces it, ignoreIfExists leaves it)`);
    }
    await this.makeParents(i, 'rename', to.real);
    if (node.kind === 'file') {
      this.set(i, to.real, node);
      this.set(i, from.real, NONE);
      return;
    }
    if (node.kind !== 'folder') return;
    const inside = await this.contents(i, 'rename', from.real);
    this.set(i, to.real, node);
    for (const { real, node: n } of inside) {
      const moved = join(to.real, relative(from.real, real));
      this.guard(i, 'rename', this.nameOf(moved), moved);
      if ((await this.get(i, moved)).kind !== 'none')
        throw refuse(i, 'rename', from.path, `${this.nameOf(moved)} exists`); // cannot: the folder was absent
      this.set(i, moved, n);
    }
    for (const { real } of [...inside].reverse()) this.set(i, real, NONE);
    this.set(i, from.real, NONE);
    this.folderRenames.push({ change: i, from: from.real, to: to.real });
  }

  private async delete(i: number, c: Extract<WorkspaceChangeInput, { kind: 'delete' }>): Promise<void> {
    const { path, real } = this.resolve(i, 'delete', c.filePath);
    await this.notALink(i, 'delete', path);
    const node = await this.get(i, real);
    if (node.kind === 'none') {
      if (c.ignoreIfNotExists) return;
      throw refuse(i, 'delete', path, 'it does not exist (ignoreIfNotExists leaves it so)');
    }
    if (node.kind === 'file') {
      this.checkGuard(i, 'delete', path, node, c.sha256);
      this.set(i, real, NONE);
      return;
    }
    if (c.sha256 !== undefined) throw refuse(i, 'delete', path, 'it is a folder; sha256 guards a file');
    const inside = await this.contents(i, 'delete', real);
    if (inside.length > 0 && !c.recursive)
      throw refuse(i, 'delete', path, 'the folder is not empty (recursive deletes it with its contents)');
    for (const { real: r } of [...inside].reverse()) this.set(i, r, NONE);
    this.set(i, real, NONE);
  }

  // --- what the changes add up to -------------------------------------------------------------------

  private result(): WorkspacePlan {
    const writes: PlannedWrite[] = [];
    const folders: PlannedFolder[] = [];
    let bytes = 0;
    for (const [real, now] of this.view) {
      const was = this.initial.get(real) ?? NONE;
      const path = this.nameOf(real);
      const i = this.touchedBy.get(real);
      if (i === undefined) continue; // only read
      if (was.kind === 'file' && now.kind === 'folder')
        throw refuse(i, 'path', path, 'the edit would turn a file into a folder; split it into two edits');
      if (was.kind === 'folder' && now.kind === 'file')
        throw refuse(i, 'path', path, 'the edit would turn a folder into a file; split it into two edits');
      if (was.kind === 'folder' && now.kind === 'none')
        folders.push({ path, target: real, change: 'remove', mode: was.mode });
      if (was.kind === 'none' && now.kind === 'folder')
        folders.push({ path, target: real, change: 'create', mode: now.mode });
      const before = was.kind === 'file' ? was.bytes : null;
      const after = now.kind === 'file' ? now.bytes : null;
      if (before === null && after === null) continue;
      if (before !== null && after !== null && before.equals(after)) continue;
      const mode = after === null ? (was as FileNode).mode : before === null ? (now as FileNode).mode : undefined;
      writes.push({ path, target: real, before, after, ...(mode !== undefined && { mode }) });
      bytes += Math.max(before?.length ?? 0, after?.length ?? 0);
      if (bytes > MAX_WRITE_BYTES)
        throw refuse(
          i,
          'path',
          path,
          `the edit rewrites more than the server's bound of ${mb(MAX_WRITE_BYTES)} of files`,
        );
    }
    const changedFiles = [...new Set([...writes.map((w) => w.path), ...folders.map((f) => f.path)])];
    return { writes, folders, files: this.answers(folders), changedFiles, editCount: this.editCount };
  }

  /** The answer's entries: each file by where it came from and where it ended, each folder change. */
  private answers(folders: readonly PlannedFolder[]): FileWriteAnswer[] {
    const at = new Map<Origin, { real: string; node: FileNode }>();
    for (const [real, node] of this.view) if (node.kind === 'file') at.set(node.origin, { real, node });
    const entries: { change: number; answer: FileWriteAnswer }[] = [];
    for (const o of this.origins) {
      const end = at.get(o);
      const after = end?.node.bytes ?? null;
      if (o.before === null && after === null) continue;
      const moved = end !== undefined && end.real !== o.real;
      if (o.before !== null && after !== null && !moved && o.before.equals(after)) continue;
      const newPath = end ? this.nameOf(end.real) : undefined;
      const change = o.before === null ? 'created' : after === null ? 'deleted' : moved ? 'renamed' : 'edited';
      const filePath = change === 'created' ? newPath! : o.path;
      entries.push({
        change: o.change,
        answer: {
          filePath,
          change,
          ...(change === 'renamed' && { newFilePath: newPath }),
          diff: fileDiff(this.folders, o.before === null ? null : o.path, newPath ?? null, o.before, after),
          sha256Before: o.before === null ? null : sha256(o.before),
          sha256After: after === null ? null : sha256(after),
        },
      });
    }
    // Folders: a renamed one is one entry; the folders its rename made and removed are not listed apart.
    const underRename = (real: string) =>
      this.folderRenames.some(
        (r) => real === r.from || real === r.to || isInside(real, r.from) || isInside(real, r.to),
      );
    for (const r of this.folderRenames)
      entries.push({
        change: r.change,
        answer: {
          filePath: this.nameOf(r.from),
          change: 'renamed',
          newFilePath: this.nameOf(r.to),
          diff: '',
          sha256Before: null,
          sha256After: null,
        },
      });
    // As the transaction makes them: folders created parents first, removed contents first.
    for (const f of [...folders].sort(transactionOrder)) {
      if (underRename(f.target)) continue;
      entries.push({
        change: this.touchedBy.get(f.target) ?? 0,
        answer: {
          filePath: f.path,
          change: f.change === 'create' ? 'createdFolder' : 'deletedFolder',
          diff: '',
          sha256Before: null,
          sha256After: null,
        },
      });
    }
    return entries.sort((a, b) => a.change - b.change).map((e) => e.answer);
  }
}

const mb = (n: number) => `${n / 1024 / 1024} MB`;
