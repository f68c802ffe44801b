import { createHash, timingSafeEqual } from "node:crypto";

import type { TerminalCredential } from "@gateway/acquirer";

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/**
 * The terminals the simulator accepts. Passwords are compared by digest in constant time so
 * that even a test double does not teach a timing leak; only digests are kept.
 */
export class TerminalCredentials {
  private readonly digests: ReadonlyMap<string, Buffer>;

  constructor(credentials: readonly TerminalCredential[]) {
    this.digests = new Map(credentials.map((c) => [c.username, digest(c.password)]));
  }

  /** The terminal (username) when the pair is accepted. */
  authenticate(username: string | null, password: string | null): string | undefined {
    if (username === null || password === null) return undefined;
    const expected = this.digests.get(username);
    const given = digest(password);
    if (expected === undefined) {
      timingSafeEqual(given, given);
      return undefined;
    }
    return timingSafeEqual(expected, given) ? username : undefined;
  }
}
