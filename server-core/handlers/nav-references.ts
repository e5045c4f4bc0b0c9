// /app/vscode/nav/references — the reference provider's answer (with or without the declaration, as
// asked), sorted by file and position and bounded, after every project of the workspace was loaded,
// with what was searched (T47: coverage).
import { type CoreContext, resolvePath } from '../context';
import { isUnavailable, type Range } from '../host';
import { coverWorkspace, wireCoverage } from '../projects';
import type { Handlers } from '../protocol';
import { type WireUnavailable, wireUnavailable } from '../unavailable';
import { askAt, byFileAndPosition, wireRange } from './document';
import { type Locator, locate } from './locator';

/** Most locations returned; totalCount still counts them all (truncated when locations.length < totalCount). */
export const MAX_REFERENCES = 10_000;

/**
 * The references to the symbol a request names (line and character, or a name path), once the host's
 * language servers have loaded every project (both asked side by side: the locator's symbols, the
 * projects), sorted by file and position; or why there are none (T48). Shared with referencingSymbols.
 */
export async function coveredReferences(
  svc: CoreContext,
  params: Locator,
  includeDeclaration: boolean,
  signal: AbortSignal,
): Promise<{
  refs: { filePath: string; range: Range }[];
  coverage: ReturnType<typeof wireCoverage>;
  unavailable?: WireUnavailable;
}> {
  const file = resolvePath(svc, params.filePath).path;
  const [{ line, character }, covered] = await Promise.all([
    locate(svc, params, signal),
    coverWorkspace(svc, signal, file),
  ]);
  const { answer } = await askAt(svc, params.filePath, line, character, (path, at) =>
    svc.language.references(path, at, includeDeclaration, signal),
  );
  const coverage = wireCoverage(covered);
  if (isUnavailable(answer)) {
    svc.tools.log(`references: ${answer.unavailable}`);
    return { refs: [], coverage, unavailable: wireUnavailable(answer) };
  }
  const key = (r: { filePath: string; range: Range }) => ({ filePath: r.filePath, ...r.range.start });
  return { refs: [...answer].sort((a, b) => byFileAndPosition(key(a), key(b))), coverage };
}

export function navReferences(svc: CoreContext): Handlers['navReferences'] {
  return async (params, ctx) => {
    const { refs, coverage, unavailable } = await coveredReferences(svc, params, params.includeDeclaration, ctx.signal);
    const locations = refs.slice(0, MAX_REFERENCES).map((l) => ({ filePath: l.filePath, ...wireRange(l.range) }));
    return { locations, totalCount: refs.length, coverage, ...(unavailable && { unavailable }) };
  };
}
