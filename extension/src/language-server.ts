// Waiting for a document's language server instead of sleeping: VS Code has no "ready" event, so
// provider commands are retried (bounded, with backoff) until they answer usefully, and languages
// without a server are asked once.
import * as vscode from 'vscode';
import { poll } from '../../runtime/poll';
import { TimedOutError, withTimeout } from './with-timeout';

/** Bound on every wait for a language server. */
export const LANGUAGE_TIMEOUT_MS = 20_000;
/** Retries start after 50 ms and back off to 500 ms. */
const RETRY = { intervalMs: 50, maxIntervalMs: 500 } as const;

/** Milliseconds left until `end`, at least 1 (withTimeout's bound). */
const left = (end: number) => Math.max(1, end - Date.now());

/**
 * Calls a provider command until it answers usefully. An empty answer is accepted as final once the
 * document's language server is known to be up (its symbol provider answers for that document);
 * before that, an empty answer only means "not ready yet". Bounded by `timeoutMs`, each call too: a
 * provider waiting on a server that died may never answer (seen with a tsserver that keeps exiting),
 * which ends the wait with `silent` true and no answer. Retries back off.
 */
export async function untilAnswered<T>(
  call: () => Thenable<T>,
  useful: (r: T) => boolean,
  uri: vscode.Uri,
  signal?: AbortSignal,
  timeoutMs = LANGUAGE_TIMEOUT_MS,
): Promise<{ answer: T | undefined; silent: boolean }> {
  const end = Date.now() + timeoutMs;
  let last: T | undefined;
  let silent = false;
  const ask = async (): Promise<{ answer: T | undefined } | undefined> => {
    try {
      last = await withTimeout(call(), left(end), 'the language server');
      return { answer: last };
    } catch (e) {
      if (!(e instanceof TimedOutError)) throw e;
      silent = true;
      return undefined;
    }
  };
  const settled = await poll(
    async () => {
      const asked = await ask();
      if (!asked) return { answer: undefined };
      if (useful(asked.answer as T)) return asked;
      // The server is up: one more call settles whether the empty answer was a startup artefact.
      if (await languageServerAnswers(uri, end)) return (await ask()) ?? { answer: undefined };
      return undefined;
    },
    { deadline: end, signal, ...RETRY },
  );
  return { answer: settled ? settled.answer : last, silent };
}

/** True once the document's symbol provider returns something for it (asked until `end` at most). */
async function languageServerAnswers(uri: vscode.Uri, end = Date.now() + LANGUAGE_TIMEOUT_MS): Promise<boolean> {
  try {
    const s = await withTimeout(
      vscode.commands.executeCommand<unknown[]>('vscode.executeDocumentSymbolProvider', uri),
      left(end),
      'document symbols',
    );
    return Array.isArray(s) && s.length > 0;
  } catch {
    return false;
  }
}

/** Resolves once languageServerAnswers(uri), or when the bound passes or the signal aborts. */
export async function languageServerReady(uri: vscode.Uri, signal?: AbortSignal): Promise<void> {
  const end = Date.now() + LANGUAGE_TIMEOUT_MS;
  await poll(async () => ((await languageServerAnswers(uri, end)) ? true : undefined), {
    deadline: end,
    signal,
    ...RETRY,
  });
}

/**
 * Document symbols, retried until the provider answers (bounded, each call too); undefined when it
 * never answered within the bound (a call that did not come back), [] when it answered nothing.
 */
export async function documentSymbols(
  uri: vscode.Uri,
  signal?: AbortSignal,
): Promise<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined> {
  const end = Date.now() + LANGUAGE_TIMEOUT_MS;
  let last: unknown;
  let silent = false;
  const found = await poll(
    async () => {
      try {
        last = await withTimeout(
          vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', uri),
          left(end),
          'document symbols',
        );
      } catch (e) {
        if (e instanceof TimedOutError) {
          silent = true;
          return [];
        }
        last = undefined;
      }
      return Array.isArray(last) && last.length > 0
        ? (last as (vscode.DocumentSymbol | vscode.SymbolInformation)[])
        : undefined;
    },
    { deadline: end, signal, ...RETRY },
  );
  if (found && found.length > 0) return found;
  if (silent) return undefined;
  return Array.isArray(last) ? (last as vscode.DocumentSymbol[]) : [];
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
