// /app/vscode/nav/implementation — the implementations of the interface or member at a position, each
// with its declaration's text (provider-locations.ts).
import type { Handlers } from '../protocol';
import type { Services } from '../services';
import { providerLocations } from './provider-locations';

export function navImplementation(svc: Services): Handlers['navImplementation'] {
  return (params, ctx) => providerLocations(svc, 'vscode.executeImplementationProvider', params, ctx);
}
