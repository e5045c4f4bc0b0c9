// Whether the language server's checker finds nothing in a file right now, asked directly. Pushed
// diagnostics cannot say it: typescript-language-server publishes nothing when a file's diagnostics stay
// empty (each kind, syntactic, semantic and suggestion, is sent only when it changes), so after a change
// to a clean file "still clean" and "not checked yet" look alike, and diag/list waited out the whole
// silent wait (diagnostics-store.ts, 2.5 s). Where the server offers tsserver's own requests through
// `typescript.tsserverRequest` (typescript-language-server does; its initialize answer lists it), the
// three *DiagnosticsSync requests answer at once from the text the server has. Only "nothing, in all
// three" is used: it ends the wait with the empty set already published. Any finding, failure or other
// server leaves the wait as it was, so the answer's diagnostics always come from the server's publishes.
import type { Bounds } from './bounded';
import type { ServerProcess } from './server-process';

export const TSSERVER_REQUEST = 'typescript.tsserverRequest';
const CHECKS = ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync', 'suggestionDiagnosticsSync'] as const;

/** True only when the server can be asked and every check answered an empty list for `path`. */
export async function checkerFindsNothing(server: ServerProcess, path: string, bounds: Bounds): Promise<boolean> {
  if (!server.executeCommands.has(TSSERVER_REQUEST)) return false;
  try {
    const answers = await Promise.all(
      CHECKS.map((check) =>
        server.request<{ success?: unknown; body?: unknown } | null>(
          'workspace/executeCommand',
          { command: TSSERVER_REQUEST, arguments: [check, { file: path, includeLinePosition: false }] },
          `${check} of ${path}`,
          bounds,
        ),
      ),
    );
    return answers.every((a) => a?.success === true && Array.isArray(a.body) && a.body.length === 0);
  } catch {
    return false; // a timeout, an abort or a refusal: the caller's wait goes on (and sees the abort itself)
  }
}
