// Token comparison for the handshake. Both sides are hashed first so the comparison takes the same
// time whatever the lengths, and timingSafeEqual compares the digests in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';

export function tokensEqual(expected: string, given: string): boolean {
  const a = createHash('sha256').update(expected, 'utf8').digest();
  const b = createHash('sha256').update(given, 'utf8').digest();
  return timingSafeEqual(a, b);
}
