// A small v0.1.7 server that models what the event clauses (T35–T42) ask, over the fixture workspace, for
// the runner's own tests of its event and cancel cases: the generated v0.1.7 session (runtime/) with
// handlers for edit/replace, edit/find, diag/list, edit/rename, nav/references, history/diff and (with
// `editor`) editor/open; diagnostics from a few text rules standing in for a language server; a poller
// standing in for a file watcher (it sees the runner's own writes too); and `flaws` that each break one
// clause, so the tests can show the cases fail exactly such servers.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { type Handlers, ProtocolError, SERVER_PROTOCOL } from '../../generated/v0.1.7/server';
import { createIdeaServer, type RunningIdeaServer } from '../../runtime/idea-server';
import {
  DiagnosticsBaseline,
  type DiagnosticsFileDelta,
  type EventDiagnostic,
  mergeDiagnosticsDeltas,
} from '../../server-core/events/diagnostics-delta';
import { escapeRegExp } from '../../server-core/search/regex-core';
import { tick } from '../support/wait';
import { globRe } from './in-test-server';

/** The version the model speaks: the cases of later versions do not apply to it. */
export { PROTOCOL_VERSION as MODEL_VERSION } from '../../generated/v0.1.7/topics';
export const DIAG = '/app/vscode/diagnostics/changed';
export const FILES = '/app/vscode/files/changed';
export const EDITOR = '/app/vscode/editor/changed';

export interface ModelFlaws {
  /** Advertises diagnostics/changed but never pushes it (no initial event either). */
  silentDiagnostics?: boolean;
  /** Sends no initial diagnostics/changed event. */
  noInitialDiagnostics?: boolean;
  /** Sends an initial files/changed event (it has no state). */
  filesInitial?: boolean;
  /** Each event's total counts one more than the file has. */
  totalOffByOne?: boolean;
  /** Covers only the files diag/list named: a file a write changed is not (T35). */
  writesNotCovered?: boolean;
  /** Does not see other processes' changes to files (no watcher): only its own writes are reported. */
  noWatcher?: boolean;
  /** editor/open does not push editor/changed. */
  editorSilent?: boolean;
  /** Writes run to the end whatever a cancel says (the session answers CANCELLED): T41 broken. */
  writesIgnoreCancel?: boolean;
}

export interface ModelOptions {
  /** Serve editor/open and push editor/changed. */
  editor?: boolean;
  flaws?: ModelFlaws;
  /** The full hash of the fixture's first commit (history/diff's fromRef). */
  initialCommit: string;
}

const SKIP = new Set(['.git', 'node_modules', '.vscode', 'hidden', '.yarn']);

function files(root: string, dir = ''): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (SKIP.has(e.name)) return [];
    if (e.isDirectory()) return files(root, rel);
    return e.isFile() ? [rel] : [];
  });
}

/** The language server stand-in: TS2322 for the fixture's type errors, TS6133 for src/unused.ts's local. */
export function diagnosticsOf(text: string): EventDiagnostic[] {
  const out: EventDiagnostic[] = [];
  text.split('\n').forEach((line, n) => {
    const at = (name: string, severity: 'error' | 'warning', message: string, code: string) => {
      const character = line.indexOf(name);
      out.push({
        line: n,
        character,
        endLine: n,
        endCharacter: character + name.length,
        severity,
        message,
        source: 'ts',
        code,
      });
    };
    let m = /const (\w+): number = ('|c\.name)/.exec(line);
    if (m) at(m[1]!, 'error', "Type 'string' is not assignable to type 'number'.", '2322');
    m = /const (\w+): string = input/.exec(line);
    if (m) at(m[1]!, 'error', "Type 'number' is not assignable to type 'string'.", '2322');
    if (/const unusedValue\b/.test(line))
      at('unusedValue', 'warning', "'unusedValue' is declared but its value is never read.", '6133');
  });
  return out;
}

export async function startModelServer(root: string, o: ModelOptions): Promise<RunningIdeaServer> {
  const flaws = o.flaws ?? {};
  const abs = (p: string) => resolve(root, p);
  const rel = (p: string) => relative(root, abs(p)).split(sep).join('/');
  const baseline = new DiagnosticsBaseline();
  const covered = new Set<string>();
  const editor = {
    activeFile: null as string | null,
    visibleFiles: [] as string[],
    selection: { line: 0, character: 0, endLine: 0, endCharacter: 0 },
  };
  let server: RunningIdeaServer | undefined;

  const emitDiagnostics = (deltas: DiagnosticsFileDelta[]) => {
    if (flaws.silentDiagnostics || deltas.length === 0) return;
    const files = deltas.map((d) => (flaws.totalOffByOne ? { ...d, total: d.total + 1 } : d));
    server?.emit(DIAG, { files });
  };
  /** A covered file's diagnostics now: into the baseline, and pushed when they changed. */
  const refresh = (paths: string[]) => {
    const deltas: DiagnosticsFileDelta[] = [];
    for (const p of paths) {
      if (!covered.has(p)) continue;
      let text = '';
      try {
        text = readFileSync(p, 'utf8');
      } catch {
        // deleted: no diagnostics
      }
      const delta = baseline.update(p, diagnosticsOf(text));
      if (delta) deltas.push(delta);
    }
    emitDiagnostics(deltas);
  };

  // The watcher stand-in: the workspace's files by content hash, compared every 40 ms.
  const hashOf = (p: string) =>
    createHash('sha256')
      .update(readFileSync(join(root, p)))
      .digest('hex');
  let known = new Map(files(root).map((p) => [p, hashOf(p)]));
  const poll = () => {
    const now = new Map(files(root).map((p) => [p, hashOf(p)]));
    const changes: { filePath: string; change: 'created' | 'changed' | 'deleted' }[] = [];
    for (const [p, h] of now) {
      const before = known.get(p);
      if (before === undefined) changes.push({ filePath: join(root, p), change: 'created' });
      else if (before !== h) changes.push({ filePath: join(root, p), change: 'changed' });
    }
    for (const p of known.keys()) if (!now.has(p)) changes.push({ filePath: join(root, p), change: 'deleted' });
    known = now;
    return changes;
  };
  const report = (changes: ReturnType<typeof poll>) => {
    if (changes.length === 0) return;
    server?.emit(FILES, { changes });
    refresh(changes.map((c) => c.filePath));
  };
  const timer = setInterval(() => {
    const changes = poll();
    if (!flaws.noWatcher) report(changes);
  }, 40);
  /** After the server's own write: reported at once (the poller would see it too). */
  const wrote = (paths: string[]) => {
    if (!flaws.writesNotCovered) for (const p of paths) covered.add(p);
    report(poll());
  };

  const writeAll = async (edits: Map<string, string>, signal: AbortSignal) => {
    await tick();
    if (signal.aborted && !flaws.writesIgnoreCancel) throw new Error('cancelled');
    for (const [p, text] of edits) writeFileSync(p, text);
    wrote([...edits.keys()]);
  };

  const handlers: Partial<Handlers> = {
    async editReplace({ pattern, replacement, include }, ctx) {
      const inc = include ? globRe(include) : undefined;
      const edits = new Map<string, string>();
      let replacedCount = 0;
      for (const p of files(root)) {
        if (inc && !inc.test(p)) continue;
        const text = readFileSync(join(root, p), 'utf8');
        const parts = text.split(pattern);
        if (parts.length < 2) continue;
        replacedCount += parts.length - 1;
        edits.set(join(root, p), parts.join(replacement));
      }
      await writeAll(edits, ctx.signal);
      return { replacedCount, affectedFiles: [...edits.keys()] };
    },
    async editFind({ pattern, include, isRegex, isCaseSensitive }, ctx) {
      await tick();
      if (ctx.signal.aborted) throw new Error('cancelled');
      const inc = include ? globRe(include) : undefined;
      const re = new RegExp(isRegex ? pattern : escapeRegExp(pattern), isCaseSensitive ? '' : 'i');
      const matches = files(root)
        .filter((p) => !inc || inc.test(p))
        .flatMap((p) =>
          readFileSync(join(root, p), 'utf8')
            .split('\n')
            .flatMap((lineText, line) => {
              const m = re.exec(lineText);
              return m ? [{ filePath: join(root, p), line, character: m.index, lineText }] : [];
            }),
        );
      return { matches, totalCount: matches.length };
    },
    async diagList({ filePath, severity }) {
      const paths = (Array.isArray(filePath) ? filePath : filePath === undefined ? [] : [filePath]).map(abs);
      for (const p of paths) covered.add(p);
      refresh(paths);
      const diagnostics = paths.flatMap((p) => {
        let text: string;
        try {
          text = readFileSync(p, 'utf8');
        } catch {
          throw new ProtocolError('INVALID_REQUEST', `no such file: ${rel(p)}`);
        }
        return diagnosticsOf(text)
          .filter((d) => !severity || severity === 'all' || d.severity === severity)
          .map((d) => ({ filePath: p, ...d }));
      });
      return { diagnostics, totalCount: diagnostics.length };
    },
    async navReferences(_params, ctx) {
      await tick();
      if (ctx.signal.aborted) throw new Error('cancelled');
      const locations = [
        { filePath: join(root, 'src/shapes.ts'), line: 12, character: 13, endLine: 12, endCharacter: 19 },
      ];
      return { locations, totalCount: locations.length };
    },
    async historyDiff(_params, ctx) {
      await tick();
      if (ctx.signal.aborted) throw new Error('cancelled');
      const diff = '+/** Geometric shapes used across the fixture project. */\n+  scale(factor: number): Circle {\n';
      return { diff, fromRef: o.initialCommit, toRef: 'HEAD' };
    },
    async editRename({ newName }, ctx) {
      const edits = new Map<string, string>();
      const out = [];
      let editCount = 0;
      for (const p of ['src/shapes.ts', 'src/main.ts']) {
        const text = readFileSync(join(root, p), 'utf8');
        const lines = text.split('\n');
        const fileEdits = lines.flatMap((l, line) =>
          [...l.matchAll(/totalArea/g)].map((m) => ({
            line,
            character: m.index,
            endLine: line,
            endCharacter: m.index + 'totalArea'.length,
            newText: newName,
          })),
        );
        editCount += fileEdits.length;
        edits.set(join(root, p), text.replaceAll('totalArea', newName));
        out.push({ filePath: join(root, p), edits: fileEdits, diff: `-totalArea\n+${newName}\n` });
      }
      await writeAll(edits, ctx.signal);
      return { dryRun: false, files: out, changedFiles: [...edits.keys()], editCount };
    },
    ...(o.editor
      ? {
          async editorOpen({ filePath, line = 0, character = 0, endLine, endCharacter }) {
            const p = abs(filePath);
            editor.activeFile = p;
            editor.visibleFiles = [p];
            // The range as given (the model's files are long enough for the cases' ranges).
            editor.selection = { line, character, endLine: endLine ?? line, endCharacter: endCharacter ?? character };
            if (!flaws.editorSilent) server?.emit(EDITOR, editorState());
            return { filePath: p, ...editor.selection };
          },
        }
      : {}),
  };
  const editorState = () => ({
    activeFile: editor.activeFile,
    selections: editor.activeFile
      ? [
          {
            line: editor.selection.line,
            character: editor.selection.character,
            activeLine: editor.selection.endLine,
            activeCharacter: editor.selection.endCharacter,
          },
        ]
      : [],
    visibleFiles: editor.visibleFiles,
    dirtyFiles: [],
  });

  server = await createIdeaServer({
    protocol: SERVER_PROTOCOL,
    port: 0,
    auth: { required: false },
    handlers: () => handlers,
    workspaces: () => [root],
    session: {
      events: o.editor ? [DIAG, FILES, EDITOR] : [DIAG, FILES],
      initialEvent: (event: string) => {
        if (event === DIAG)
          return flaws.silentDiagnostics || flaws.noInitialDiagnostics
            ? undefined
            : { files: baseline.snapshot().map((d) => (flaws.totalOffByOne ? { ...d, total: d.total + 1 } : d)) };
        if (event === FILES) return flaws.filesInitial ? { changes: [] } : undefined;
        if (event === EDITOR) return editorState();
        return undefined;
      },
      mergeEventEntry: (event: string, queued: unknown, newer: unknown) =>
        event === DIAG ? mergeDiagnosticsDeltas(queued as DiagnosticsFileDelta, newer as DiagnosticsFileDelta) : newer,
    },
  });
  const close = server.close.bind(server);
  return Object.assign(server, {
    close: async () => {
      clearInterval(timer);
      await close();
    },
  });
}
