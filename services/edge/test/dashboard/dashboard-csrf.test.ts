import { describe, expect, it } from "vitest";
import { DashboardCsrf } from "../../src/dashboard/dashboard-csrf.js";

const SECRET = "a-test-secret-of-at-least-32-characters!";
/** `openssl dgst -sha256 -hmac "dashboard\n<SECRET>"` of "session-token-1", base64url. */
const TOKEN_OF_SESSION_1 = "RE-xZ6ZjrDdZDYztcu_EN0mGe1gZvguN9KZkHxnnW-w";

describe("dashboard CSRF tokens", () => {
  const tokens = new DashboardCsrf(SECRET);

  it("when the secret and session are fixed, then the token is HMAC-SHA256 under the dashboard's key", () => {
    expect(tokens.tokenFor("session-token-1")).toBe(TOKEN_OF_SESSION_1);
  });

  it("when the session, the key or the token differ, or the token is missing, then it does not verify", () => {
    expect(tokens.verify("session-token-1", TOKEN_OF_SESSION_1)).toBe(true);
    expect(tokens.verify("session-token-2", TOKEN_OF_SESSION_1)).toBe(false);
    expect(new DashboardCsrf(`${SECRET}x`).verify("session-token-1", TOKEN_OF_SESSION_1)).toBe(false);
    expect(tokens.verify("session-token-1", `${TOKEN_OF_SESSION_1.slice(0, -1)}x`)).toBe(false);
    expect(tokens.verify("session-token-1", undefined)).toBe(false);
  });
});
