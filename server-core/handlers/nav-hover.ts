// /app/vscode/nav/hover — what the hover shows at a position: every provider's sections in order and the
// first range given. Served when the host's LanguageFeatures has hover.
import type { CoreContext } from '../context';
import { isUnavailable, type LanguageFeatures } from '../host';
import type { Handlers } from '../protocol';
import { wireUnavailable } from '../unavailable';
import { askAt, wireRange } from './document';
import { locate } from './locator';

export function navHover(svc: CoreContext, hover: NonNullable<LanguageFeatures['hover']>): Handlers['navHover'] {
  return async (params, ctx) => {
    const { line, character } = await locate(svc, params, ctx.signal);
    const { answer } = await askAt(svc, params.filePath, line, character, (path, at) => hover(path, at, ctx.signal));
    if (isUnavailable(answer)) {
      svc.tools.log(`hover: ${answer.unavailable}`);
      return { contents: [], unavailable: wireUnavailable(answer) };
    }
    const contents = answer.contents.filter((c) => c.value !== '').map((c) => ({ kind: c.kind, value: c.value }));
    return answer.range ? { contents, range: wireRange(answer.range) } : { contents };
  };
}
