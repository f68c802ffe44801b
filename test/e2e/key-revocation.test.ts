import { setTimeout as sleep } from "node:timers/promises";
import { type DistributedGateway, startDistributedGateway } from "@gateway/launcher";
import { waitFor } from "@gateway/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdminApi, adminApi, merchantApi } from "./support/http.js";
import { createVerifiedMerchant, type TestMerchant } from "./support/merchants.js";

// Issue 15 item 5: expired and revoked keys stop working at once on every edge replica. Two
// edge processes share NATS; their auth cache is set to an hour, so any 200 after the expiry or
// the revocation can only come from a stale cache entry.
const ADMIN_TOKEN = "adm_e2e_key_revocation_token_8c2f1d";

describe("expired and revoked API keys across two edge replicas", () => {
  let gw: DistributedGateway;
  let admin: AdminApi;
  let shop: TestMerchant;
  const list = (edge: number, key: string) => merchantApi(gw.edgeUrls[edge]!, key).listSessions();

  beforeAll(async () => {
    gw = await startDistributedGateway({
      mongodbUrl: process.env.MONGODB_URL,
      natsUrl: process.env.NATS_URL,
      databasePrefix: `e2e_keys_${Date.now().toString(36)}`,
      edgeReplicas: 2,
      env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, GATEWAY_DEMO: "0" },
      serviceEnv: { edge: { GATEWAY_AUTH_CACHE_TTL: "1h" } },
    });
    admin = adminApi(gw.edgeUrl, ADMIN_TOKEN);
    shop = await createVerifiedMerchant(admin, "Key Shop", false);
  });

  afterAll(async () => {
    await gw?.stop();
  });

  it("a key past its expires_at is refused by both edges, although both had it cached", async () => {
    const expiresAt = new Date(Date.now() + 10_000);
    const key = await admin.createKey(shop.id, "test", expiresAt.toISOString());
    expect(key.status, key.text).toBe(201);
    for (const edge of [0, 1]) expect((await list(edge, key.body.key)).status).toBe(200);
    await sleep(Math.max(0, expiresAt.getTime() - Date.now()) + 500);
    for (let i = 0; i < 5; i++) {
      for (const edge of [0, 1]) expect((await list(edge, key.body.key)).status).toBe(401);
    }
  });

  it("a key revoked through one edge is refused by the other, without waiting for its cache", async () => {
    const key = await admin.createKey(shop.id, "test");
    expect(key.status, key.text).toBe(201);
    for (const edge of [0, 1]) expect((await list(edge, key.body.key)).status).toBe(200);
    expect((await admin.revokeKey(key.body.id)).status).toBe(200);
    expect((await list(0, key.body.key)).status).toBe(401);
    // The announcement crosses NATS; a generous bound, far below the hour-long cache.
    await waitFor(async () => (await list(1, key.body.key)).status === 401, {
      timeoutMs: 15_000,
      intervalMs: 100,
    });
    for (let i = 0; i < 5; i++) expect((await list(1, key.body.key)).status).toBe(401);
    // Another key of the merchant keeps working: only the revoked one was dropped.
    expect((await list(1, shop.testKey)).status).toBe(200);
  });
});
