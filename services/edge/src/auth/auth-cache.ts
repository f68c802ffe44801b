import { createHash } from "node:crypto";
import type { Clock } from "@gateway/platform";
import type { AuthenticatedCaller } from "./authenticated-caller.js";

/**
 * Successful authentications, kept for a short TTL so that most requests skip the accounts
 * call while a revocation still takes effect within seconds. Entries are keyed by the SHA-256
 * of the API key: the raw key is never held longer than the request that carried it.
 * Failures are never cached (a key created a second ago must work at once). An entry never
 * outlives the key's own `expires_at`, and a revocation announced by any edge replica drops
 * it at once (forgetKey).
 */
export class AuthCache {
  private readonly entries = new Map<string, { caller: AuthenticatedCaller; expiresAt: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  static fingerprint(apiKey: string): string {
    return createHash("sha256").update(apiKey, "utf8").digest("hex");
  }

  get(fingerprint: string): AuthenticatedCaller | undefined {
    const entry = this.entries.get(fingerprint);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock.now().getTime()) {
      this.entries.delete(fingerprint);
      return undefined;
    }
    return entry.caller;
  }

  /** `keyExpiresAt`: when the key itself stops working; the entry ends then at the latest. */
  set(fingerprint: string, caller: AuthenticatedCaller, keyExpiresAt?: Date): void {
    const now = this.clock.now().getTime();
    const expiresAt = Math.min(now + this.ttlMs, keyExpiresAt?.getTime() ?? Number.POSITIVE_INFINITY);
    if (expiresAt <= now) return;
    this.entries.delete(fingerprint);
    // Map iteration is insertion order: the first entry is the oldest.
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    this.entries.set(fingerprint, { caller, expiresAt });
  }

  /** Drops a revoked key at once (told by the revoking edge, through KeyRevocations). */
  forgetKey(keyId: string): void {
    for (const [fingerprint, entry] of this.entries) {
      if (entry.caller.keyId === keyId) this.entries.delete(fingerprint);
    }
  }
}
