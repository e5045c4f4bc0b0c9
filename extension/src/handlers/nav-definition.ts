// /app/vscode/nav/definition — the definition provider's answer, each with the full declaration text
// (provider-locations.ts).
import type { Handlers } from '../protocol';
import type { Services } from '../services';
import { providerLocations } from './provider-locations';

export function navDefinition(svc: Services): Handlers['navDefinition'] {
  return (params, ctx) => providerLocations(svc, 'vscode.executeDefinitionProvider', params, ctx);
}
