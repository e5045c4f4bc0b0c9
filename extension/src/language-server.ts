// Waiting for a document's language server instead of sleeping: VS Code has no "ready" event, so
// provider commands are retried (bounded, with backoff) until they answer usefully, and languages
// without a server are asked once.
import * as vscode from 'vscode';
import { poll } from '../../runtime/poll';

/** Bound on every wait for a language server. */
export const LANGUAGE_TIMEOUT_MS = 20_000;
/** Retries start after 50 ms and back off to 500 ms. */
const RETRY = { intervalMs: 50, maxIntervalMs: 500 } as const;

/**
 * Calls a provider command until it answers usefully. An empty answer is accepted as final once the
 * document's language server is known to be up (its symbol provider answers for that document);
 * before that, an empty answer only means "not ready yet". Bounded by `timeoutMs`; retries back off.
 */
export async function untilAnswered<T>(
  call: () => Thenable<T>,
  useful: (r: T) => boolean,
  uri: vscode.Uri,
  signal?: AbortSignal,
  timeoutMs = LANGUAGE_TIMEOUT_MS,
): Promise<T> {
  let last!: T;
  const settled = await poll(
    async () => {
      last = await call();
      if (useful(last)) return { answer: last };
      // The server is up: one more call settles whether the empty answer was a startup artefact.
      if (await languageServerAnswers(uri)) return { answer: await call() };
      return undefined;
    },
    { timeoutMs, signal, ...RETRY },
  );
  return settled ? settled.answer : last;
}

/** True once the document's symbol provider returns something for it. */
async function languageServerAnswers(uri: vscode.Uri): Promise<boolean> {
  try {
    const s = await vscode.commands.executeCommand<unknown[]>('vscode.executeDocumentSymbolProvider', uri);
    return Array.isArray(s) && s.length > 0;
  } catch {
    return false;
  }
}

/** Resolves once languageServerAnswers(uri), or when the bound passes or the signal aborts. */
export async function languageServerReady(uri: vscode.Uri, signal?: AbortSignal): Promise<void> {
  await poll(async () => ((await languageServerAnswers(uri)) ? true : undefined), {
    timeoutMs: LANGUAGE_TIMEOUT_MS,
    signal,
    ...RETRY,
  });
}

/** Document symbols, retried until the provider answers (bounded). */
export async function documentSymbols(
  uri: vscode.Uri,
  signal?: AbortSignal,
): Promise<(vscode.DocumentSymbol | vscode.SymbolInformation)[]> {
  let last: unknown;
  const found = await poll(
    async () => {
      try {
        last = await vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', uri);
      } catch {
        last = undefined;
      }
      return Array.isArray(last) && last.length > 0
        ? (last as (vscode.DocumentSymbol | vscode.SymbolInformation)[])
        : undefined;
    },
    { timeoutMs: LANGUAGE_TIMEOUT_MS, signal, ...RETRY },
  );
  return found ?? (Array.isArray(last) ? (last as vscode.DocumentSymbol[]) : []);
}

const serverCache = new Map<string, vscode.Extension<unknown>[]>();

/**
 * The installed extensions with code that activate on documents of `languageId`: its language servers,
 * as far as VS Code tells. ("*" activation does not count: git has it.)
 */
export function languageExtensions(languageId: string): vscode.Extension<unknown>[] {
  let found = serverCache.get(languageId);
  if (found === undefined) {
    found = vscode.extensions.all.filter((e) => {
      const pj = e.packageJSON as { main?: unknown; browser?: unknown; activationEvents?: unknown };
      const events = Array.isArray(pj.activationEvents) ? pj.activationEvents : [];
      return (pj.main !== undefined || pj.browser !== undefined) && events.includes(`onLanguage:${languageId}`);
    });
    serverCache.set(languageId, found);
  }
  return found;
}

/**
 * True when no installed extension with code activates on the document's language, i.e. there is no
 * language server to wait for (plain text, or languages that only have a grammar): handlers then ask
 * once instead of retrying until the timeout.
 */
export function hasNoLanguageServer(doc: vscode.TextDocument): boolean {
  return languageExtensions(doc.languageId).length === 0;
}
