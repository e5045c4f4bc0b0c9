// Why an answer is empty (clause T48): a host's Unavailable as the wire's `unavailable` field, set only on
// an empty answer no language server could give. A host that cannot tell the kind says `none`.
import type { Unavailable, UnavailableKind } from './host';

export interface WireUnavailable {
  kind: UnavailableKind;
  reason: string;
}

export function wireUnavailable(u: Unavailable): WireUnavailable {
  return { kind: u.kind ?? 'none', reason: u.unavailable };
}
