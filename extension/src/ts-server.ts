// TypeScript/JavaScript documents: VS Code's TypeScript support runs a syntax-only server first and
// the semantic one after loading the project, and only the latter's answers are complete. Asked
// through the `typescript.tsserverRequest` command the TypeScript extension allows.
import * as vscode from 'vscode';
import { poll } from '../../runtime/poll';
import { withTimeout } from './documents';
import { LANGUAGE_TIMEOUT_MS } from './language-server';

const TS_LANGUAGES = new Set(['typescript', 'typescriptreact', 'javascript', 'javascriptreact']);

/**
 * For TS/JS documents: resolves once tsserver's semantic server has loaded the document's project.
 * While a project loads, VS Code answers definition/references from a syntax-only server that sees
 * open files only (partial, yet non-empty, answers), and document symbols come from that server too,
 * so neither tells "ready". `semanticDiagnosticsSync` is served by the semantic server alone, after
 * loading. Retries while the TypeScript extension is not active yet; bounded; other languages resolve
 * at once.
 */
export async function semanticServerReady(doc: vscode.TextDocument, signal?: AbortSignal): Promise<void> {
  if (!TS_LANGUAGES.has(doc.languageId)) return;
  const end = Date.now() + LANGUAGE_TIMEOUT_MS;
  await poll(
    async () => {
      try {
        await withTimeout(
          vscode.commands.executeCommand('typescript.tsserverRequest', 'semanticDiagnosticsSync', { file: doc.uri }),
          Math.max(1, end - Date.now()),
          'tsserver',
        );
        return true;
      } catch (e) {
        // Only "command not found" (extension still activating) is worth retrying.
        return /not found/i.test((e as Error).message) ? undefined : true;
      }
    },
    { deadline: end, signal, intervalMs: 50, maxIntervalMs: 500 },
  );
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
