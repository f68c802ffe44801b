import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from "node:crypto";

export const CSRF_FIELD = "csrf";

/**
 * CSRF tokens of the signed-in dashboard (synchronizer token, stateless): every form carries
 * HMAC-SHA256(secret, session token). The session token sits in an HttpOnly cookie that a
 * cross-site page can neither read nor send on a cross-site POST (SameSite=Lax), so it cannot
 * compute the value, and a token minted for one session is worthless in another: signing out or
 * changing the password (a new session) makes every old form inert.
 */
export class DashboardCsrf {
  /** Made once (docs/decisions.md#hmac-keys-are-made-once). */
  private readonly key: KeyObject;

  constructor(secret: string) {
    if (secret === "") throw new Error("the CSRF secret must not be empty");
    this.key = createSecretKey(Buffer.from(`dashboard\n${secret}`, "utf8"));
  }

  tokenFor(sessionToken: string): string {
    return createHmac("sha256", this.key).update(sessionToken).digest("base64url");
  }

  verify(sessionToken: string, submitted: string | undefined): boolean {
    if (submitted === undefined) return false;
    const expected = Buffer.from(this.tokenFor(sessionToken), "utf8");
    const given = Buffer.from(submitted, "utf8");
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
