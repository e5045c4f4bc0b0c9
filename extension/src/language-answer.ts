// A document's language server asked the way every language request asks it (its project loaded, then
// retried until it answers or is known to be up), and why an empty answer is empty (clause T48): no
// extension serves the language (`none`), tsserver not running or not ready (ts-server.ts), an
// extension serving the language that failed to activate (`down`) or is still activating (`loading`), a
// provider that did not come back within the bound (`loading`).
import type * as vscode from 'vscode';
import type { Unavailable } from '../../server-core/host';
import { hasNoLanguageServer, LANGUAGE_TIMEOUT_MS, languageExtensions, untilAnswered } from './language-server';
import { semanticServerReady } from './ts-server';
import { TimedOutError, withTimeout } from './with-timeout';

export function noLanguageServer(doc: vscode.TextDocument): Unavailable {
  return {
    kind: 'none',
    unavailable: `no language server for ${doc.languageId} files: no installed extension serves the language`,
  };
}

/**
 * How long an extension serving the language may take to say how its activation went, here: VS Code
 * started activating it when the document opened, and the request has waited for its server since.
 */
const ACTIVATION_CHECK_MS = 1000;

/** The language server's provider did not come back within the bound: not ready, as far as we can tell. */
function silentServer(doc: vscode.TextDocument): Unavailable {
  return {
    kind: 'loading',
    unavailable: `the ${doc.languageId} language server did not answer within ${LANGUAGE_TIMEOUT_MS / 1000} s`,
  };
}

/**
 * Why `doc`'s language server gave nothing, or undefined when it answered that there is nothing.
 * `tsWhy` is semanticServerReady's verdict, `silent` whether a provider call never came back. An
 * extension that failed to activate stays "active" in VS Code's eyes; its activate() rejects again with
 * the error, so that is what is asked.
 */
export async function whyEmpty(
  doc: vscode.TextDocument,
  tsWhy: Unavailable | undefined,
  silent = false,
): Promise<Unavailable | undefined> {
  if (hasNoLanguageServer(doc)) return noLanguageServer(doc);
  if (tsWhy) return tsWhy;
  const verdicts = await Promise.all(
    languageExtensions(doc.languageId).map((e) =>
      withTimeout(Promise.resolve(e.activate()), ACTIVATION_CHECK_MS, 'activation').then(
        () => 'up' as const,
        (err: unknown) =>
          err instanceof TimedOutError ? 'starting' : `${e.id}: ${err instanceof Error ? err.message : String(err)}`,
      ),
    ),
  );
  if (verdicts.includes('up')) return silent ? silentServer(doc) : undefined;
  const failed = verdicts.filter((v) => v !== 'starting');
  if (failed.length > 0)
    return {
      kind: 'down',
      unavailable: `the ${doc.languageId} language server failed to start (${failed.join('; ')})`,
    };
  return {
    kind: 'loading',
    unavailable: `the ${doc.languageId} language server (${languageExtensions(doc.languageId)
      .map((e) => e.id)
      .join(', ')}) is still starting`,
  };
}

/**
 * Asks `call` for `doc`: once when no extension serves its language or its TS/JS server cannot answer,
 * else (TS/JS projects loaded first) until `useful` says it answered or its server is known to be up
 * (untilAnswered); every call bounded. `why()` says why an empty answer is empty; it is only worth
 * asking when the answer came to nothing.
 */
export async function askLanguageServer<T>(
  doc: vscode.TextDocument,
  call: () => Thenable<T | undefined>,
  useful: (r: T | undefined) => boolean,
  signal: AbortSignal | undefined,
): Promise<{ answer: T | undefined; why(): Promise<Unavailable | undefined> }> {
  const tsWhy = await semanticServerReady(doc, signal);
  // No server, or tsserver not running or not ready within the bound: retrying would wait for nothing.
  if (hasNoLanguageServer(doc) || tsWhy) {
    try {
      const answer = await withTimeout(call(), LANGUAGE_TIMEOUT_MS, 'the language server');
      return { answer, why: () => whyEmpty(doc, tsWhy) };
    } catch (e) {
      if (!(e instanceof TimedOutError)) throw e;
      return { answer: undefined, why: () => whyEmpty(doc, tsWhy, true) };
    }
  }
  const { answer, silent } = await untilAnswered(call, useful, doc.uri, signal);
  return { answer, why: () => whyEmpty(doc, tsWhy, silent) };
}
