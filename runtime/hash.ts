// The one content hash: hex sha256, for codegen's manifests and headers and the extension's write journal.
import { createHash } from 'node:crypto';

/** Lowercase hex sha256 of `data` (a string is hashed as UTF-8). */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
