import { hash } from "node:crypto";

/**
 * The SHA-256 of `text` (UTF-8) in hex, in one call: an API key on every request, a create's
 * fingerprint. `createHash(...).update(...).digest(...)` builds a Hash object each time, which
 * took twice as long on such short inputs (0.6–0.9 µs against 0.2–0.5 µs).
 */
export function sha256Hex(text: string): string {
  return hash("sha256", text, "hex");
}
