// /app/vscode/nav/typeDefinition — where the type of the symbol at a position is declared, with the
// declaration's text (provider-locations.ts).
import type { Handlers } from '../protocol';
import type { Services } from '../services';
import { providerLocations } from './provider-locations';

export function navTypeDefinition(svc: Services): Handlers['navTypeDefinition'] {
  return (params, ctx) => providerLocations(svc, 'vscode.executeTypeDefinitionProvider', params, ctx);
}
