import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type Client, Code, createClient } from "@connectrpc/connect";
import { fromConnectError, ManualClock } from "@gateway/platform";
import { AccountsService, ApiKeysService } from "@gateway/proto";
import { beforeEach, describe, expect, it } from "vitest";
import { connectErrorOf } from "./support/connect-error-of.js";
import { inProcessAccounts } from "./support/in-process-accounts.js";

describe("ApiKeysService over Connect (the dashboard's keys page)", () => {
  let clock: ManualClock;
  let accounts: Client<typeof AccountsService>;
  let keys: Client<typeof ApiKeysService>;
  let merchantId: string;

  beforeEach(async () => {
    clock = new ManualClock(Date.UTC(2026, 10, 23, 10));
    const { transport } = inProcessAccounts(clock);
    accounts = createClient(AccountsService, transport);
    keys = createClient(ApiKeysService, transport);
    const { merchant } = await accounts.createMerchant({ name: "Keys Shop" });
    merchantId = merchant!.id;
    await accounts.verifyMerchant({ merchantId });
  });

  it("when a test key exists, then it is listed masked and shown again whenever asked", async () => {
    const created = await accounts.createApiKey({ merchantId, livemode: false });
    const { apiKeys } = await keys.listApiKeys({ merchantId, livemode: false });
    expect(apiKeys.map((k) => [k.id, k.prefix, k.retrievable])).toEqual([
      [created.apiKey!.id, created.secret.slice(0, 20), true],
    ]);
    expect(JSON.stringify(apiKeys, (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(
      created.secret,
    );
    for (let i = 0; i < 2; i++)
      expect((await keys.revealTestKey({ merchantId, keyId: created.apiKey!.id })).secret).toBe(
        created.secret,
      );
  });

  it("when a live key exists, then it is never shown again, and the list has only the mode asked", async () => {
    const live = await accounts.createApiKey({ merchantId, livemode: true });
    await accounts.createApiKey({ merchantId, livemode: false });
    const { apiKeys } = await keys.listApiKeys({ merchantId, livemode: true });
    expect(apiKeys.map((k) => [k.id, k.retrievable])).toEqual([[live.apiKey!.id, false]]);
    const err = await connectErrorOf(keys.revealTestKey({ merchantId, keyId: live.apiKey!.id }));
    expect(err.code).toBe(Code.FailedPrecondition);
    expect(err.rawMessage).toMatch(/shown only once/);
  });

  it("when another merchant's key is asked for, rolled or revoked, then NOT_FOUND and it keeps working", async () => {
    const { merchant: other } = await accounts.createMerchant({ name: "Other Shop" });
    const theirs = await accounts.createApiKey({ merchantId: other!.id, livemode: false });
    const keyId = theirs.apiKey!.id;
    for (const call of [
      keys.revealTestKey({ merchantId, keyId }),
      keys.rollApiKey({ merchantId, keyId, overlapSeconds: 0 }),
      keys.revokeMerchantApiKey({ merchantId, keyId }),
    ]) {
      expect((await connectErrorOf(call)).code).toBe(Code.NotFound);
    }
    expect((await accounts.authenticate({ apiKey: theirs.secret })).keyId).toBe(keyId);
  });

  it("when a key is rolled with an hour's overlap, then both work for the hour and only the new one after", async () => {
    const old = await accounts.createApiKey({ merchantId, livemode: false });
    const rolled = await keys.rollApiKey({ merchantId, keyId: old.apiKey!.id, overlapSeconds: 3600 });
    expect(rolled.secret).toMatch(/^sk_test_[0-9A-Za-z]{44}$/);
    expect(timestampDate(rolled.previous!.expiresAt!).getTime()).toBe(clock.now().getTime() + 3_600_000);
    expect((await accounts.authenticate({ apiKey: old.secret })).keyId).toBe(old.apiKey!.id);
    expect((await accounts.authenticate({ apiKey: rolled.secret })).keyId).toBe(rolled.apiKey!.id);
    clock.advance(3_600_000);
    expect(fromConnectError(await connectErrorOf(accounts.authenticate({ apiKey: old.secret }))).reason).toBe(
      "UNAUTHORIZED",
    );
    expect((await accounts.authenticate({ apiKey: rolled.secret })).keyId).toBe(rolled.apiKey!.id);
  });

  it("when a key is rolled now or revoked, then it stops at once; a bad overlap changes nothing", async () => {
    const a = await accounts.createApiKey({ merchantId, livemode: true });
    const bad = await connectErrorOf(
      keys.rollApiKey({ merchantId, keyId: a.apiKey!.id, overlapSeconds: 60 }),
    );
    expect(fromConnectError(bad).violations.map((v) => v.field)).toEqual(["overlap_seconds"]);
    expect((await keys.listApiKeys({ merchantId, livemode: true })).apiKeys).toHaveLength(1);
    const rolled = await keys.rollApiKey({ merchantId, keyId: a.apiKey!.id, overlapSeconds: 0 });
    expect(rolled.previous!.revokedAt).toBeDefined();
    expect(rolled.apiKey!.livemode).toBe(true);
    await connectErrorOf(accounts.authenticate({ apiKey: a.secret }));
    const revoked = await keys.revokeMerchantApiKey({ merchantId, keyId: rolled.apiKey!.id });
    expect(revoked.apiKey!.revokedAt).toBeDefined();
    await connectErrorOf(accounts.authenticate({ apiKey: rolled.secret }));
  });

  it("records a key's last use to the minute, without a write per request", async () => {
    const key = await accounts.createApiKey({ merchantId, livemode: false });
    const lastUsed = async () => {
      const [listed] = (await keys.listApiKeys({ merchantId, livemode: false })).apiKeys;
      return listed?.lastUsedAt ? timestampDate(listed.lastUsedAt).toISOString() : undefined;
    };
    expect(await lastUsed()).toBeUndefined();
    await accounts.authenticate({ apiKey: key.secret });
    const first = await lastUsed();
    expect(first).toBe("2026-11-23T10:00:00.000Z");
    clock.advance(30_000);
    await accounts.authenticate({ apiKey: key.secret });
    expect(await lastUsed()).toBe(first);
    clock.advance(30_000);
    await accounts.authenticate({ apiKey: key.secret });
    expect(await lastUsed()).toBe("2026-11-23T10:01:00.000Z");
  });
});
