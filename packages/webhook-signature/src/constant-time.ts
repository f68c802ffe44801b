import { timingSafeEqual } from "node:crypto";

/**
 * Whether any received signature equals any expected one. Every pair is compared in constant
 * time (timingSafeEqual needs equal lengths; a length mismatch cannot match and leaks only the
 * length, which is public anyway), and the loop never stops early.
 */
export function anyMatches(expected: Uint8Array[], received: Uint8Array[]): boolean {
  let matched = false;
  for (const candidate of received) {
    for (const wanted of expected) {
      if (candidate.byteLength === wanted.byteLength && timingSafeEqual(candidate, wanted)) matched = true;
    }
  }
  return matched;
}
