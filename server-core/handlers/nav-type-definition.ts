// /app/vscode/nav/typeDefinition — where the type of the symbol at a position is declared, each with
// its declaration's text (provider-locations.ts). Served when the host's LanguageFeatures has typeDefinition.
import type { CoreContext } from '../context';
import type { LanguageFeatures } from '../host';
import type { Handlers } from '../protocol';
import { providerLocations } from './provider-locations';

export function navTypeDefinition(
  svc: CoreContext,
  provider: NonNullable<LanguageFeatures['typeDefinition']>,
): Handlers['navTypeDefinition'] {
  return (params, ctx) => providerLocations(svc, 'typeDefinition', provider, params, ctx.signal);
}
