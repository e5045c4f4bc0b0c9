// /app/vscode/nav/definition — the definition provider's answer, each with the full declaration text
// (provider-locations.ts).
import type { CoreContext } from '../context';
import type { Handlers } from '../protocol';
import { providerLocations } from './provider-locations';

export function navDefinition(svc: CoreContext): Handlers['navDefinition'] {
  return (params, ctx) =>
    providerLocations(svc, 'definition', (p, at, s) => svc.language.definition(p, at, s), params, ctx.signal);
}
