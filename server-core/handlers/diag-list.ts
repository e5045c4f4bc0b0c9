// /app/vscode/diag/list — with filePath: each file's diagnostics once its analysis settled (the host
// opens it for its language server and waits); without: every diagnostic already known for files.
import { type CoreContext, resolvePath } from '../context';
import { severityFilter, toWireDiagnostic, type WireDiagnostic } from '../diagnostics';
import { isUnavailable } from '../host';
import type { DiagListResult, Handlers } from '../protocol';
import { type WireUnavailable, wireUnavailable } from '../unavailable';
import { byFileAndPosition } from './document';

/** Most diagnostics returned; totalCount still counts them all (truncated when diagnostics.length < totalCount). */
export const MAX_DIAGNOSTICS = 10_000;

export function diagList(svc: CoreContext): Handlers['diagList'] {
  return async (params, ctx) => {
    const keep = severityFilter(params.severity);
    let out: WireDiagnostic[] = [];
    let unavailable: WireUnavailable | undefined;
    if (params.filePath === undefined) {
      for (const { filePath, diagnostics } of svc.language.allDiagnostics())
        for (const d of diagnostics) out.push(toWireDiagnostic(filePath, d));
    } else {
      const paths = Array.isArray(params.filePath) ? params.filePath : [params.filePath];
      const resolved = paths.map((p) => resolvePath(svc, p).path);
      const perFile = await Promise.all(
        [...new Set(resolved)].map(async (path) => {
          const list = await svc.language.diagnostics(path, ctx.signal);
          if (isUnavailable(list)) {
            svc.tools.log(`diagnostics: ${list.unavailable}`);
            unavailable ??= wireUnavailable(list);
            return [];
          }
          return list.map((d) => toWireDiagnostic(path, d));
        }),
      );
      out = perFile.flat();
    }
    out = out.filter(keep).sort(byFileAndPosition);
    const diagnostics = out.slice(0, MAX_DIAGNOSTICS) as DiagListResult['diagnostics'];
    // T48: an empty answer says why when a file named had no language server to answer for it.
    return unavailable && out.length === 0
      ? { diagnostics, totalCount: 0, unavailable }
      : { diagnostics, totalCount: out.length };
  };
}
