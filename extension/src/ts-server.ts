// TypeScript/JavaScript documents: VS Code's TypeScript support runs a syntax-only server first and
// the semantic one after loading the project, and only the latter's answers are complete. Asked
// through the `typescript.tsserverRequest` command the TypeScript extension allows.
import * as vscode from 'vscode';
import { poll } from '../../runtime/poll';
import { withTimeout } from './documents';
import { LANGUAGE_TIMEOUT_MS } from './language-server';

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

/**
 * For TS/JS documents: resolves once tsserver's semantic server has loaded the document's project.
 * While a project loads, VS Code answers definition/references from a syntax-only server that sees
 * open files only (partial, yet non-empty, answers), and document symbols come from that server too,
 * so neither tells "ready". `semanticDiagnosticsSync` is served by the semantic server alone, after
 * loading. Retries while the TypeScript extension is not active yet; bounded; other languages resolve
 * at once. An answer is remembered for the document's version until an event says a project may be
 * loading again (watchTsServerState), READY_FOR_MS at most: one more tsserver request per call otherwise.
 */
export async function semanticServerReady(doc: vscode.TextDocument, signal?: AbortSignal): Promise<void> {
  if (!TS_LANGUAGES.has(doc.languageId) || knownReady(doc)) return;
  // Taken before asking: after an event or an edit during the check, the answer never matches.
  const asked = { version: doc.version, epoch, at: Date.now() };
  const end = asked.at + LANGUAGE_TIMEOUT_MS;
  let answered = false;
  await poll(
    async () => {
      try {
        await withTimeout(
          vscode.commands.executeCommand('typescript.tsserverRequest', 'semanticDiagnosticsSync', { file: doc.uri }),
          Math.max(1, end - Date.now()),
          'tsserver',
        );
        answered = true;
        return true;
      } catch (e) {
        // Only "command not found" (extension still activating) is worth retrying.
        return /not found/i.test((e as Error).message) ? undefined : true;
      }
    },
    { deadline: end, signal, intervalMs: 50, maxIntervalMs: 500 },
  );
  if (answered) ready.set(doc, asked);
}

/**
 * How many diagnostics tsserver itself has for a TS/JS document (syntactic + semantic + suggestion),
 * asked synchronously once its semantic server is ready; undefined for other languages or on failure.
 * Zero means no diagnostics event is coming for a file that had none (VS Code only announces changes).
 */
export async function tsDiagnosticsCount(doc: vscode.TextDocument, signal?: AbortSignal): Promise<number | undefined> {
  if (!TS_LANGUAGES.has(doc.languageId)) return undefined;
  await semanticServerReady(doc, signal);
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
