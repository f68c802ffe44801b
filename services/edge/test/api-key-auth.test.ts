import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import { GatewayError, ManualClock, toConnectError } from "@gateway/platform";
import { AccountScopeSchema, type AccountsService } from "@gateway/proto";
import { beforeEach, describe, expect, it } from "vitest";
import { ApiKeyAuthenticator, apiKeyFingerprint } from "../src/auth/api-key-authenticator.js";
import { readBearerToken } from "../src/auth/bearer-token.js";
import { ADMIN_TOKEN, bearer, createTestEdge, type TestEdge } from "./fakes/edge-test-harness.js";
import { expectProblem } from "./problem-assertions.js";

const LIST = "/api/v1/gateway/sessions/list/";

describe("API key authentication", () => {
  let t: TestEdge;
  let key: { secret: string; keyId: string; merchantId: string };

  beforeEach(async () => {
    t = createTestEdge({ authCacheTtlMs: 5000 });
    key = await t.accounts.issueKey();
  });

  it("when the Authorization header is missing, then 401 unauthorized with WWW-Authenticate, without asking accounts", async () => {
    const res = await t.app.inject({ method: "GET", url: LIST });
    expectProblem(res, 401, "unauthorized", "Unauthorized");
    expect(res.headers["www-authenticate"]).toBe("Bearer");
    expect(t.accounts.authenticateCalls).toHaveLength(0);
  });

  it.each([
    ["Basic dXNlcjpwYXNz"],
    ["Bearer"],
    ["Bearer "],
    ["Bearer two words"],
    ["Bearer sk_test_\u00e9"],
    ["sk_test_abc"],
    [`Bearer ${"a".repeat(600)}`],
  ])("when the header is malformed (%s), then 401 without asking accounts", async (authorization) => {
    const res = await t.app.inject({ method: "GET", url: LIST, headers: { authorization } });
    expectProblem(res, 401, "unauthorized", "Unauthorized");
    expect(t.accounts.authenticateCalls).toHaveLength(0);
  });

  it("when the key is unknown, then 401 and the failure is not cached", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ method: "GET", url: LIST, headers: bearer("sk_test_unknownkey") });
      expectProblem(res, 401, "unauthorized", "Unauthorized");
    }
    expect(t.accounts.authenticateCalls).toEqual(["sk_test_unknownkey", "sk_test_unknownkey"]);
  });

  it("when the scheme is written in lower case, then the key is still read", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: LIST,
      headers: { authorization: `bearer ${key.secret}` },
    });
    expect(res.statusCode).toBe(200);
  });

  it("when the same key is used again within the TTL, then accounts is asked once", async () => {
    for (let i = 0; i < 3; i++)
      expect((await t.app.inject({ method: "GET", url: LIST, headers: bearer(key.secret) })).statusCode).toBe(
        200,
      );
    expect(t.accounts.authenticateCalls).toHaveLength(1);
  });

  it("when a key is revoked at accounts, then it is refused once the cache TTL has passed", async () => {
    expect((await t.app.inject({ method: "GET", url: LIST, headers: bearer(key.secret) })).statusCode).toBe(
      200,
    );
    await t.accounts.revokeApiKey({ keyId: key.keyId });
    t.clock.advance(4_000);
    // Still inside the TTL: this replica has not asked again yet.
    expect((await t.app.inject({ method: "GET", url: LIST, headers: bearer(key.secret) })).statusCode).toBe(
      200,
    );
    t.clock.advance(1_001);
    expectProblem(
      await t.app.inject({ method: "GET", url: LIST, headers: bearer(key.secret) }),
      401,
      "unauthorized",
      "Unauthorized",
    );
  });

  it("when a key is revoked through this edge's admin API, then it is refused at once", async () => {
    expect((await t.app.inject({ method: "GET", url: LIST, headers: bearer(key.secret) })).statusCode).toBe(
      200,
    );
    const revoke = await t.app.inject({
      method: "DELETE",
      url: `/admin/v1/api-keys/${key.keyId}`,
      headers: bearer(ADMIN_TOKEN),
    });
    expect(revoke.statusCode).toBe(200);
    expectProblem(
      await t.app.inject({ method: "GET", url: LIST, headers: bearer(key.secret) }),
      401,
      "unauthorized",
      "Unauthorized",
    );
  });

  it("when accounts is unreachable, then 503 service-unavailable, not 401, and it recovers", async () => {
    t.outage.accounts = true;
    const res = await t.app.inject({ method: "GET", url: LIST, headers: bearer(key.secret) });
    expectProblem(res, 503, "service-unavailable", "Service Unavailable");
    expect(res.headers["retry-after"]).toBe("1");
    expect(res.headers["www-authenticate"]).toBeUndefined();
    t.outage.accounts = false;
    expect((await t.app.inject({ method: "GET", url: LIST, headers: bearer(key.secret) })).statusCode).toBe(
      200,
    );
  });

  it("when a session belongs to another merchant, then it is not found", async () => {
    const other = await t.accounts.issueKey();
    const created = await t.app.inject({
      method: "POST",
      url: "/api/v1/gateway/sessions/",
      headers: { ...bearer(other.secret), "content-type": "application/json" },
      payload: { merchant_reference: "theirs", amount: "1.000" },
    });
    const id = created.json().id as string;
    expectProblem(
      await t.app.inject({
        method: "GET",
        url: `/api/v1/gateway/sessions/${id}/`,
        headers: bearer(key.secret),
      }),
      404,
      "not-found",
      "Not Found",
    );
    expectProblem(
      await t.app.inject({
        method: "POST",
        url: `/api/v1/gateway/sessions/${id}/cancel/`,
        headers: bearer(key.secret),
      }),
      404,
      "not-found",
      "Not Found",
    );
  });

  it("when a live key is used, then the session is created in live mode", async () => {
    const live = await t.accounts.issueKey({ livemode: true });
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/gateway/sessions/",
      headers: { ...bearer(live.secret), "content-type": "application/json" },
      payload: { merchant_reference: "live-1", amount: "1.000" },
    });
    expect(res.json().livemode).toBe(true);
  });

  it("never writes the Authorization header, API keys or the admin token to the logs", async () => {
    const calls = [
      { method: "GET" as const, url: LIST, headers: bearer(key.secret) },
      { method: "GET" as const, url: LIST, headers: bearer("sk_test_wrongwrongwrong") },
      {
        method: "POST" as const,
        url: "/api/v1/gateway/sessions/",
        headers: { ...bearer(key.secret), "content-type": "application/json" },
        payload: "{bad",
      },
      { method: "GET" as const, url: "/api/v1/gateway/sessions/ps_x/", headers: bearer(key.secret) },
      {
        method: "POST" as const,
        url: "/admin/v1/merchants/mer_x/api-keys",
        headers: { ...bearer(ADMIN_TOKEN), "content-type": "application/json" },
        payload: { mode: "test" },
      },
      { method: "GET" as const, url: "/admin/v1/merchants", headers: bearer("wrong-admin-token") },
    ];
    for (const call of calls) await t.app.inject(call);
    t.outage.accounts = true;
    await t.app.inject({ method: "GET", url: LIST, headers: bearer("sk_test_anotherkeyvalue") });
    t.sessions.failWith = new Error(`boom while handling ${key.secret}`);
    t.outage.accounts = false;
    await t.app.inject({ method: "GET", url: LIST, headers: bearer(key.secret) });

    const logs = t.logLines.join("\n");
    expect(t.logLines.length).toBeGreaterThan(10);
    for (const secret of [
      key.secret,
      "sk_test_wrongwrongwrong",
      "sk_test_anotherkeyvalue",
      ADMIN_TOKEN,
      "wrong-admin-token",
    ]) {
      expect(logs).not.toContain(secret);
    }
    expect(logs.toLowerCase()).not.toContain("bearer");
    expect(logs.toLowerCase()).not.toContain("authorization");
  });
});

describe("readBearerToken", () => {
  it("reads RFC 6750 tokens and refuses everything else", () => {
    expect(readBearerToken("Bearer sk_test_AbC123")).toBe("sk_test_AbC123");
    expect(readBearerToken("BEARER  abc+/=")).toBe("abc+/=");
    expect(readBearerToken(undefined)).toBeUndefined();
    expect(readBearerToken(["Bearer a", "Bearer b"])).toBeUndefined();
    expect(readBearerToken("Bearer a=b")).toBeUndefined();
  });
});

/**
 * An accounts client whose Authenticate answers are handed out by the test: each call waits
 * until the test answers it with a key id (or refuses it).
 */
function scriptedAccounts() {
  const calls: Array<{ resolve(keyId: string, expiresAt?: Date): void; refuse(): void }> = [];
  const client = {
    authenticate: () =>
      new Promise((resolve, reject) =>
        calls.push({
          resolve: (keyId, expiresAt) =>
            resolve({
              scope: create(AccountScopeSchema, { merchantId: "mer_1", livemode: false }),
              keyId,
              ...(expiresAt ? { expiresAt: timestampFromDate(expiresAt) } : {}),
            }),
          refuse: () =>
            reject(toConnectError(new GatewayError("UNAUTHORIZED", "Invalid API key."), "accounts")),
        }),
      ),
  } as unknown as Client<typeof AccountsService>;
  return { client, calls };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("ApiKeyAuthenticator", () => {
  it("keys what it remembers by the SHA-256 of the API key, never the key itself", () => {
    const fingerprint = apiKeyFingerprint("sk_test_secret");
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint).not.toContain("sk_test");
  });

  it("when requests with one key arrive while accounts is being asked, then they share one question", async () => {
    const accounts = scriptedAccounts();
    const auth = new ApiKeyAuthenticator(accounts.client, new ManualClock(), 5_000);
    const answers = Promise.all([auth.authenticate("sk_test_a"), auth.authenticate("sk_test_a")]);
    expect(accounts.calls).toHaveLength(1);
    accounts.calls[0]!.resolve("key_a");
    expect((await answers).map((c) => c.keyId)).toEqual(["key_a", "key_a"]);
  });

  it("when a key in use nears the end of its time, then it is answered at once and checked again in the background, and a revocation found so is refused", async () => {
    const clock = new ManualClock();
    const accounts = scriptedAccounts();
    const auth = new ApiKeyAuthenticator(accounts.client, clock, 5_000);
    const first = auth.authenticate("sk_test_a");
    accounts.calls[0]!.resolve("key_a");
    await first;
    clock.advance(2_500);
    expect((await auth.authenticate("sk_test_a")).keyId).toBe("key_a");
    expect(accounts.calls).toHaveLength(2);
    accounts.calls[1]!.refuse();
    await settle();
    const after = auth.authenticate("sk_test_a");
    expect(accounts.calls).toHaveLength(3);
    accounts.calls[2]!.refuse();
    await expect(after).rejects.toMatchObject({ reason: "UNAUTHORIZED" });
  });

  it("never answers from memory past the key's own expiry", async () => {
    const clock = new ManualClock();
    const accounts = scriptedAccounts();
    const auth = new ApiKeyAuthenticator(accounts.client, clock, 5_000);
    const first = auth.authenticate("sk_test_a");
    accounts.calls[0]!.resolve("key_a", new Date(clock.now().getTime() + 1_000));
    await first;
    clock.advance(999);
    expect((await auth.authenticate("sk_test_a")).keyId).toBe("key_a");
    clock.advance(1);
    await expect(auth.authenticate("sk_test_a")).rejects.toMatchObject({ reason: "UNAUTHORIZED" });
  });

  it("when a key expires while accounts is being asked, then it is refused", async () => {
    const clock = new ManualClock();
    const accounts = scriptedAccounts();
    const auth = new ApiKeyAuthenticator(accounts.client, clock, 5_000);
    const asked = auth.authenticate("sk_test_a");
    clock.advance(1_000);
    accounts.calls[0]!.resolve("key_a", new Date(clock.now().getTime()));
    await expect(asked).rejects.toMatchObject({ reason: "UNAUTHORIZED" });
  });

  it("forgets a revoked key at once, and keeps the others", async () => {
    const accounts = scriptedAccounts();
    const auth = new ApiKeyAuthenticator(accounts.client, new ManualClock(), 5_000);
    for (const [secret, keyId] of [
      ["sk_test_a", "key_a"],
      ["sk_test_b", "key_b"],
    ] as const) {
      const asked = auth.authenticate(secret);
      accounts.calls.at(-1)!.resolve(keyId);
      await asked;
    }
    auth.forgetKey("key_a");
    await auth.authenticate("sk_test_b");
    expect(accounts.calls).toHaveLength(2);
    void auth.authenticate("sk_test_a");
    expect(accounts.calls).toHaveLength(3);
  });

  it("when the TTL is 0, then every request asks accounts", async () => {
    const accounts = scriptedAccounts();
    const auth = new ApiKeyAuthenticator(accounts.client, new ManualClock(), 0);
    for (let i = 0; i < 2; i++) {
      const asked = auth.authenticate("sk_test_a");
      accounts.calls[i]!.resolve("key_a");
      await asked;
    }
    expect(accounts.calls).toHaveLength(2);
  });
});
