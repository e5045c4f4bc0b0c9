// TypeScript/JavaScript documents: VS Code's TypeScript support runs a syntax-only server first and
// the semantic one after loading the project, and only the latter's answers are complete. Asked
// through the `typescript.tsserverRequest` command the TypeScript extension allows.
import * as vscode from 'vscode';
import { poll } from '../../runtime/poll';
import type { Unavailable } from '../../server-core/host';
import { hasNoLanguageServer, LANGUAGE_TIMEOUT_MS } from './language-server';
import { TimedOutError, withTimeout } from './with-timeout';

const TS_LANGUAGES = new Set(['typescript', 'typescriptreact', 'javascript', 'javascriptreact']);

/**
 * How long a confirmed-ready document skips the check, at most. Bounds what no event announces: a
 * tsserver restarted by its command or after a crash, in a workspace without TS diagnostics to clear.
 */
const READY_FOR_MS = 2000;

/** Moves whenever tsserver may be loading a project again; a remembered readiness from before is void. */
let epoch = 0;
/** Off until watchTsServerState runs: without its events nothing is remembered. */
let watching = false;
/** Per open document (a reopened file is a new object): the version, epoch and time its check answered at. */
const ready = new WeakMap<vscode.TextDocument, { version: number; epoch: number; at: number }>();

/**
 * Watches what can make tsserver load a project again, so a readiness remembered before is dropped:
 * while any project loads, VS Code routes every file's requests to the syntax-only server.
 * - a TS/JS document opening: its project may not be loaded yet;
 * - a tsconfig/jsconfig file created, changed or deleted: tsserver reloads that project;
 * - a configuration change: TypeScript settings restart tsserver;
 * - diagnostics changing: a restart clears the TS diagnostics, a reload republishes them.
 */
export function watchTsServerState(): vscode.Disposable {
  const moved = () => {
    epoch++;
  };
  const configs = vscode.workspace.createFileSystemWatcher('**/{tsconfig,jsconfig}*.json');
  const subscriptions = [
    vscode.workspace.onDidOpenTextDocument((d) => {
      if (TS_LANGUAGES.has(d.languageId)) moved();
    }),
    configs,
    configs.onDidCreate(moved),
    configs.onDidChange(moved),
    configs.onDidDelete(moved),
    vscode.workspace.onDidChangeConfiguration(moved),
    vscode.languages.onDidChangeDiagnostics(moved),
  ];
  watching = true;
  return {
    dispose() {
      watching = false;
      moved();
      for (const s of subscriptions) s.dispose();
    },
  };
}

function knownReady(doc: vscode.TextDocument): boolean {
  const r = ready.get(doc);
  return (
    watching && r !== undefined && r.version === doc.version && r.epoch === epoch && Date.now() - r.at < READY_FOR_MS
  );
}

/** VS Code's TypeScript client answers this, without asking tsserver, while no tsserver runs. */
const isNoServer = (r: unknown) => (r as { type?: unknown } | undefined)?.type === 'noServer';
/** A request tsserver dropped (a restart, a newer request for the file): not an answer, asked again. */
const isCancelled = (r: unknown) => (r as { type?: unknown } | undefined)?.type === 'cancelled';
/** Dropped because the server process ended: VS Code's client then starts another one. */
const isServerExit = (r: unknown) =>
  isCancelled(r) && /^server (exited|errored)/.test(String((r as { reason?: unknown }).reason));
/**
 * Server exits during one wait that make it `down`: one is a restart (a setting changed, the user asked),
 * more is a server that dies at start or on this project, which VS Code's client keeps restarting.
 */
const EXITS_WHEN_DOWN = 3;

/**
 * For TS/JS documents: resolves once tsserver's semantic server has loaded the document's project.
 * While a project loads, VS Code answers definition/references from a syntax-only server that sees
 * open files only (partial, yet non-empty, answers), and document symbols come from that server too,
 * so neither tells "ready". `semanticDiagnosticsSync` is served by the semantic server alone, after
 * loading. Retries while the TypeScript extension is not active yet; bounded; other languages resolve
 * at once. An answer is remembered for the document's version until an event says a project may be
 * loading again (watchTsServerState), READY_FOR_MS at most: one more tsserver request per call otherwise.
 *
 * `deadline` (absolute, Date.now() ms) ends the wait instead of LANGUAGE_TIMEOUT_MS from now.
 *
 * Resolves with why the semantic server cannot answer (clause T48), or undefined: ready, not a TS/JS
 * document, a request error (an answer too), or the signal aborted. `down`: VS Code's TypeScript client
 * says no tsserver runs (it stops restarting one that crashes at once, sometimes), or the server exited
 * EXITS_WHEN_DOWN times while we waited; `loading`: no answer within the bound (a project still
 * loading, or the TypeScript extension not active).
 */
export async function semanticServerReady(
  doc: vscode.TextDocument,
  signal?: AbortSignal,
  deadline?: number,
): Promise<Unavailable | undefined> {
  // Without the TypeScript extension there is nothing to wait for (the caller says so: none).
  if (!TS_LANGUAGES.has(doc.languageId) || knownReady(doc) || hasNoLanguageServer(doc)) return undefined;
  // Taken before asking: after an event or an edit during the check, the answer never matches.
  const asked = { version: doc.version, epoch, at: Date.now() };
  const end = deadline ?? asked.at + LANGUAGE_TIMEOUT_MS;
  let outcome: 'answered' | 'error' | 'noServer' | 'crashing' | 'timeout' | undefined;
  let exits = 0;
  await poll(
    async () => {
      try {
        const r = await withTimeout(
          vscode.commands.executeCommand('typescript.tsserverRequest', 'semanticDiagnosticsSync', { file: doc.uri }),
          Math.max(1, end - Date.now()),
          'tsserver',
        );
        if (isServerExit(r) && ++exits >= EXITS_WHEN_DOWN) {
          outcome = 'crashing';
          return true;
        }
        if (isCancelled(r)) return undefined;
        outcome = isNoServer(r) ? 'noServer' : 'answered';
        return true;
      } catch (e) {
        // Only "command not found" (extension still activating) is worth retrying.
        if (/not found/i.test((e as Error).message)) return undefined;
        outcome = e instanceof TimedOutError ? 'timeout' : 'error';
        return true;
      }
    },
    { deadline: end, signal, intervalMs: 50, maxIntervalMs: 500 },
  );
  if (outcome === 'answered') ready.set(doc, asked);
  if (outcome === 'noServer')
    return {
      kind: 'down',
      unavailable:
        "VS Code's TypeScript server is not running: it crashed or could not start (its output channel, TypeScript, says why)",
    };
  if (outcome === 'crashing')
    return {
      kind: 'down',
      unavailable: `VS Code's TypeScript server keeps exiting (${exits} times while this request waited): it crashes at start or on this project (its output channel, TypeScript, says why)`,
    };
  if (outcome === 'timeout' || (outcome === undefined && !signal?.aborted))
    return {
      kind: 'loading',
      unavailable: `VS Code's TypeScript server did not load the project of ${doc.uri.fsPath} within ${Math.round((end - asked.at) / 1000)} s`,
    };
  return undefined;
}

/**
 * How many diagnostics tsserver itself has for a TS/JS document (syntactic + semantic + suggestion),
 * asked synchronously once its semantic server is ready; undefined for other languages or on failure.
 * Zero means no diagnostics event is coming for a file that had none (VS Code only announces changes).
 */
export async function tsDiagnosticsCount(doc: vscode.TextDocument, signal?: AbortSignal): Promise<number | undefined> {
  if (!TS_LANGUAGES.has(doc.languageId) || (await semanticServerReady(doc, signal))) return undefined;
  try {
    const kinds = ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync', 'suggestionDiagnosticsSync'];
    const answers = await Promise.all(
      kinds.map((k) =>
        withTimeout(
          vscode.commands.executeCommand<{ body?: unknown }>('typescript.tsserverRequest', k, { file: doc.uri }),
          LANGUAGE_TIMEOUT_MS,
          'tsserver',
        ),
      ),
    );
    let n = 0;
    for (const a of answers) {
      if (!a || !Array.isArray(a.body)) return undefined;
      n += a.body.length;
    }
    return n;
  } catch {
    return undefined;
  }
}
