// /app/vscode/nav/implementation — the implementations of the interface or member at a position, each
// with its declaration's text (provider-locations.ts). Served when the host's LanguageFeatures has implementation.
import type { CoreContext } from '../context';
import type { LanguageFeatures } from '../host';
import type { Handlers } from '../protocol';
import { providerLocations } from './provider-locations';

export function navImplementation(
  svc: CoreContext,
  provider: NonNullable<LanguageFeatures['implementation']>,
): Handlers['navImplementation'] {
  return (params, ctx) => providerLocations(svc, 'implementation', provider, params, ctx.signal);
}
