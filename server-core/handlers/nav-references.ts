// /app/vscode/nav/references — the reference provider's answer (with or without the declaration, as
// asked), sorted by file and position and bounded.
import type { CoreContext } from '../context';
import { isUnavailable } from '../host';
import type { Handlers } from '../protocol';
import { wireUnavailable } from '../unavailable';
import { askAt, byFileAndPosition, wireRange } from './document';
import { locate } from './locator';

/** Most locations returned; totalCount still counts them all (truncated when locations.length < totalCount). */
export const MAX_REFERENCES = 10_000;

export function navReferences(svc: CoreContext): Handlers['navReferences'] {
  return async (params, ctx) => {
    const { line, character } = await locate(svc, params, ctx.signal);
    const { answer: refs } = await askAt(svc, params.filePath, line, character, (path, at) =>
      svc.language.references(path, at, params.includeDeclaration, ctx.signal),
    );
    if (isUnavailable(refs)) {
      svc.tools.log(`references: ${refs.unavailable}`);
      return { locations: [], totalCount: 0, unavailable: wireUnavailable(refs) };
    }
    const locations = refs.map((l) => ({ filePath: l.filePath, ...wireRange(l.range) })).sort(byFileAndPosition);
    return { locations: locations.slice(0, MAX_REFERENCES), totalCount: locations.length };
  };
}
