// idea-server's v0.1.7 events: the two it can push without an editor, through server-core's event
// machinery (confined by EventScope, coalesced and diffed by CoreEventSources, as in the extension).
// - files/changed: the host's FileWatcher (file-watcher.ts), running only while some connection
//   subscribes to files/changed or diagnostics/changed: a server nobody listens to watches nothing.
//   A subscribe to either is answered only once the watcher watches every folder (the session's
//   beforeSubscribe, which starts it): "subscribed" means changes from then on are reported (T39), a
//   file written right after the answer is "created". The wait is bounded by WATCH_READY_MS; past it
//   (a cold disk, a starved machine) the answer goes anyway, the walk goes on, and the log says that
//   changes in folders not yet watched are not reported until they are.
// - diagnostics/changed: what the language servers publish (textDocument/publishDiagnostics), so only
//   for files a language server reports on: the files it has open and whatever else it chooses to
//   publish. Which files are open is coverage's (clause T35, server-core/events/coverage.ts): the files
//   requests named or writes changed are opened in their language server (a write's after its answer)
//   and closed (didClose) once they leave coverage; the server's empty publish that follows is not
//   reported (CoreEventSources.leavesCoverage). While the watcher runs, a change on disk to an open file
//   is sent to its server at once, so its diagnostics follow an edit/replace or an outside write.
// - editor/changed: never (there is no editor); not advertised.

import type { SessionLike } from '../../runtime/ws-server';
import { Coverage } from '../../server-core/events/coverage';
import type { EventScope } from '../../server-core/events/scope';
import { CoreEventSources, DIAGNOSTICS_CHANGED, FILES_CHANGED } from '../../server-core/events/sources';
import type { FileChange, FileWatcher } from '../../server-core/host';
import type { LspClient } from './lsp/client';
import { toRawDiagnostics } from './lsp-features';

/** The events whose subscribers need the watcher. */
const WATCHED_FOR: readonly string[] = [FILES_CHANGED, DIAGNOSTICS_CHANGED];

/**
 * Longest a subscribe answer waits for the watcher to be in place. Its walk is bounded (4096 folders,
 * file-watcher.ts MAX_WATCHED_FOLDERS: well under a second on a warm disk), so only a cold disk or a
 * starved machine gets here; 2 s keeps the answer far inside any client's request timeout (ours: 30 s)
 * and the conformance runner's steps, while a wait longer than that would only trade a late answer for
 * the few changes made meanwhile in folders not yet watched.
 */
export const WATCH_READY_MS = 2000;

/** A watch's stop; fsFileWatcher's also says when its watches are in place (none: at once). */
type Watch = (() => void) & { readonly ready?: Promise<void> };

export interface ServerEventsOptions {
  /** Which paths events may name (the watcher's skipFolder asks it too). */
  scope: EventScope;
  watcher: FileWatcher;
  /** Without cover/release/holds (tests), coverage opens nothing and every publish is reported. */
  client: Pick<LspClient, 'onDiagnostics' | 'changedOnDisk'> & Partial<Pick<LspClient, 'cover' | 'release' | 'holds'>>;
  log(message: string): void;
  /** Bound on a subscribe answer's wait for the watcher; default WATCH_READY_MS (tests shorten it). */
  watchReadyMs?: number;
}

export class ServerEvents {
  private readonly sources: CoreEventSources;
  private emitTo: ((event: string, data: Record<string, unknown>) => void) | undefined;
  /** Connections subscribed to an event in WATCHED_FOR. */
  private listeners = 0;
  private stopWatch: Watch | undefined;
  /** Set once the running watch's watches are all in place (its `ready` settled). */
  private watchReady = false;
  /** The answer-delaying wait for the current watch's readiness (beforeSubscribe), shared by every subscribe. */
  private readyWait: { watch: Watch; wait: Promise<void> } | undefined;
  private readonly stopDiagnostics: () => void;
  /** What diagnostics/changed covers: the server's host.coverage (serve.ts), fed by the handlers. */
  readonly coverage: Coverage;

  constructor(private readonly o: ServerEventsOptions) {
    const { client } = o;
    this.sources = new CoreEventSources(o.scope, (event, data) =>
      this.emitTo?.(event, data as unknown as Record<string, unknown>),
    );
    // Always kept (cheap, only what servers publish): a subscriber asking for `initial` gets the current set.
    this.stopDiagnostics = client.onDiagnostics((filePath, list) =>
      this.sources.diagnosticsChanged([
        { filePath, diagnostics: toRawDiagnostics(list), held: client.holds?.(filePath) },
      ]),
    );
    // Covering a file is opening it in its language server (none configured for it: nothing to open);
    // leaving coverage is closing it there, announced first so that the empty publish is not reported.
    this.coverage = new Coverage(
      (p) => o.scope.reportable(p),
      {
        open: async (files) => {
          // A file a request named is opened by that request: syncing it again here would be a second pass.
          const opening = files.filter((f) => f.reason === 'written' || !client.holds?.(f.path));
          if (opening.length > 0) await client.cover?.(opening.map((f) => f.path));
        },
        release: (paths) => {
          this.sources.documentsClosed(paths);
          client.release?.(paths);
        },
      },
      o.log,
    );
  }

  /** The session settings: what the handshake advertises, the initial state, how deltas merge. */
  get session() {
    return {
      events: this.sources.events,
      initialEvent: (event: string) => this.sources.initial(event),
      mergeEventEntry: (event: string, queued: unknown, newer: unknown) =>
        this.sources.mergeEntry(event, queued, newer),
      beforeSubscribe: (events: readonly string[]) => this.beforeSubscribe(events),
    };
  }

  /**
   * A subscribe to an event of WATCHED_FOR starts the watcher (the connection is counted as a listener
   * by track() right after the frame) and its answer waits until the watches are in place, at most
   * watchReadyMs. Undefined (answered at once): nothing to wait for.
   */
  private beforeSubscribe(events: readonly string[]): Promise<void> | undefined {
    if (!events.some((e) => WATCHED_FOR.includes(e))) return undefined;
    this.startWatch();
    const watch = this.stopWatch;
    const ready = watch?.ready;
    if (this.watchReady || !watch || !ready) return undefined;
    // One bounded wait per watch, whoever subscribes meanwhile: 10,000 subscribes in that window cost
    // one timer and at most one line of log, not one each.
    if (this.readyWait?.watch === watch) return this.readyWait.wait;
    const bound = this.o.watchReadyMs ?? WATCH_READY_MS;
    const wait = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.o.log(
          `files/changed: the watcher is not in place after ${bound} ms (a large tree or a slow disk): subscribe answered anyway; until its walk ends, changes in folders not yet watched are not reported`,
        );
        resolve();
      }, bound);
      void ready.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.readyWait = { watch, wait };
    return wait;
  }

  /** Where events go once the server listens (runtime/idea-server.ts's emit). */
  attach(emit: (event: string, data: Record<string, unknown>) => void): void {
    this.emitTo = emit;
  }

  /** A connection's session, watched for its subscriptions: the watcher runs while any needs it. */
  track<S extends SessionLike & { readonly subscriptions: readonly string[] }>(session: S): SessionLike {
    let listening = false;
    const check = () => {
      const now = session.subscriptions.some((e) => WATCHED_FOR.includes(e));
      if (now === listening) return;
      listening = now;
      this.listenersChanged(now ? 1 : -1);
    };
    return {
      onFrame: (text) => {
        session.onFrame(text);
        check();
      },
      onClose: () => {
        session.onClose();
        check();
      },
      emit: (event, data) => session.emit?.(event, data),
      get state() {
        return session.state;
      },
    };
  }

  /** True while the watcher runs (someone subscribed). */
  get watching(): boolean {
    return this.stopWatch !== undefined;
  }

  dispose(): void {
    this.coverage.dispose();
    this.stopWatch?.();
    this.stopWatch = undefined;
    this.stopDiagnostics();
    this.sources.dispose();
    this.emitTo = undefined;
  }

  private listenersChanged(by: 1 | -1): void {
    this.listeners += by;
    if (this.listeners > 0) this.startWatch();
    else if (this.stopWatch) {
      this.stopWatch();
      this.stopWatch = undefined;
      this.o.log('stopped watching the workspace (no subscriber left)');
    }
  }

  private startWatch(): void {
    if (this.stopWatch) return;
    this.watchReady = false;
    const stop: Watch = this.o.watcher.watch((changes: FileChange[]) => {
      this.sources.filesChanged(changes);
      this.o.client.changedOnDisk(changes.map((c) => c.path));
    });
    this.stopWatch = stop;
    void stop.ready?.then(() => {
      if (this.stopWatch === stop) this.watchReady = true;
    });
    this.o.log('watching the workspace for files/changed (a client subscribed)');
  }
}
