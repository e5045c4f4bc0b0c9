// Document helpers shared by handlers: open with a bound (the workbench must answer), find the open
// (possibly dirty) document of a path, and wait for a language provider to answer instead of sleeping.
import * as vscode from 'vscode';

export const LANGUAGE_TIMEOUT_MS = 20_000;

export function withTimeout<T>(p: Thenable<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    p.then((v) => { clearTimeout(t); resolve(v); }, (e: unknown) => { clearTimeout(t); reject(e instanceof Error ? e : new Error(String(e))); });
  });
}

export function openDocument(path: string): Promise<vscode.TextDocument> {
  return withTimeout(vscode.workspace.openTextDocument(vscode.Uri.file(path)), LANGUAGE_TIMEOUT_MS, `opening ${path}`);
}

/**
 * Shows the document in an editor tab (kept, not a preview, focus unchanged). VS Code's TypeScript
 * support only computes diagnostics for files open in tabs. Bounded: without a connected workbench
 * showing never completes, and the caller then works with what the language server reports anyway.
 */
export async function showInTab(doc: vscode.TextDocument): Promise<boolean> {
  try {
    await withTimeout(vscode.window.showTextDocument(doc, { preview: false, preserveFocus: true }), 5000, 'showing the document');
    return true;
  } catch {
    return false;
  }
}

/** The open document for a path, if VS Code has one. */
export function openDocumentOf(path: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === path);
}

/** Documents with unsaved changes (their text, not the disk copy, is what find must see). */
export function dirtyDocuments(): { path: string; text: string }[] {
  return vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file').map((d) => ({ path: d.uri.fsPath, text: d.getText() }));
}

function delay(ms: number): Promise<void> {
  return new Promise<void>((r) => setTimeout(r, ms));
}

/**
 * Calls a provider command until it answers usefully. An empty answer is accepted as final once the
 * document's language server is known to be up (its symbol provider answers for that document);
 * before that, an empty answer only means "not ready yet". Bounded by `timeoutMs`; retries back off.
 */
export async function untilAnswered<T>(
  call: () => Thenable<T>, useful: (r: T) => boolean, uri: vscode.Uri, signal?: AbortSignal, timeoutMs = LANGUAGE_TIMEOUT_MS,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let wait = 50;
  for (;;) {
    const r = await call();
    if (useful(r) || Date.now() >= end || signal?.aborted) return r;
    if (await languageServerAnswers(uri)) {
      // The server is up: one more call settles whether the empty answer was a startup artefact.
      const again = await call();
      return again;
    }
    await delay(Math.min(wait, Math.max(0, end - Date.now())));
    wait = Math.min(wait * 2, 500);
  }
}

/** True once the document's symbol provider returns something for it. */
export async function languageServerAnswers(uri: vscode.Uri): Promise<boolean> {
  try {
    const s = await vscode.commands.executeCommand<unknown[]>('vscode.executeDocumentSymbolProvider', uri);
    return Array.isArray(s) && s.length > 0;
  } catch {
    return false;
  }
}

/** Document symbols, retried until the provider answers (bounded). */
export async function documentSymbols(uri: vscode.Uri, signal?: AbortSignal): Promise<(vscode.DocumentSymbol | vscode.SymbolInformation)[]> {
  const end = Date.now() + LANGUAGE_TIMEOUT_MS;
  let wait = 50;
  for (;;) {
    let r: unknown;
    try {
      r = await vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', uri);
    } catch {
      r = undefined;
    }
    if (Array.isArray(r) && r.length > 0) return r as (vscode.DocumentSymbol | vscode.SymbolInformation)[];
    if (Date.now() >= end || signal?.aborted) return Array.isArray(r) ? (r as vscode.DocumentSymbol[]) : [];
    await delay(Math.min(wait, Math.max(0, end - Date.now())));
    wait = Math.min(wait * 2, 500);
  }
}

const TS_LANGUAGES = new Set(['typescript', 'typescriptreact', 'javascript', 'javascriptreact']);

/**
 * For TS/JS documents: resolves once tsserver's semantic server has loaded the document's project.
 * While a project loads, VS Code answers definition/references from a syntax-only server that sees
 * open files only (partial, yet non-empty, answers), and document symbols come from that server too,
 * so neither tells "ready". `semanticDiagnosticsSync` (allowed through the TypeScript extension's
 * `typescript.tsserverRequest` command) is served by the semantic server alone, after loading.
 * Retries while the TypeScript extension is not active yet; bounded; other languages resolve at once.
 */
export async function semanticServerReady(doc: vscode.TextDocument, signal?: AbortSignal): Promise<void> {
  if (!TS_LANGUAGES.has(doc.languageId)) return;
  const end = Date.now() + LANGUAGE_TIMEOUT_MS;
  let wait = 50;
  while (!signal?.aborted && Date.now() < end) {
    try {
      await withTimeout(vscode.commands.executeCommand('typescript.tsserverRequest', 'semanticDiagnosticsSync', { file: doc.uri }), Math.max(1, end - Date.now()), 'tsserver');
      return;
    } catch (e) {
      // Only "command not found" (extension still activating) is worth retrying.
      if (!/not found/i.test((e as Error).message)) return;
    }
    await delay(Math.min(wait, Math.max(0, end - Date.now())));
    wait = Math.min(wait * 2, 500);
  }
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
    const answers = await Promise.all(kinds.map((k) =>
      withTimeout(vscode.commands.executeCommand<{ body?: unknown }>('typescript.tsserverRequest', k, { file: doc.uri }), LANGUAGE_TIMEOUT_MS, 'tsserver')));
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

const serverCache = new Map<string, boolean>();

/**
 * True when no installed extension with code activates on the document's language, i.e. there is no
 * language server to wait for (plain text, or languages that only have a grammar): handlers then ask
 * once instead of retrying until the timeout. ("*" activation does not count: git has it.)
 */
export function hasNoLanguageServer(doc: vscode.TextDocument): boolean {
  const id = doc.languageId;
  let has = serverCache.get(id);
  if (has === undefined) {
    has = vscode.extensions.all.some((e) => {
      const pj = e.packageJSON as { main?: unknown; browser?: unknown; activationEvents?: unknown };
      const events = Array.isArray(pj.activationEvents) ? pj.activationEvents : [];
      return (pj.main !== undefined || pj.browser !== undefined) && events.includes(`onLanguage:${id}`);
    });
    serverCache.set(id, has);
  }
  return !has;
}
