import { newId } from "@gateway/platform";
import { beforeEach, describe, expect, it } from "vitest";
import type { ApiKeyRepository } from "../../src/app/ports.js";
import { anApiKey } from "../support/api-key-fixtures.js";

export function describeApiKeyRepositoryContract(
  name: string,
  factory: () => Promise<ApiKeyRepository>,
): void {
  describe(`ApiKeyRepository contract: ${name}`, () => {
    let keys: ApiKeyRepository;
    beforeEach(async () => {
      keys = await factory();
    });

    it("when a key is inserted, then it is found by id and by lookup id with every field intact", async () => {
      const key = anApiKey({ livemode: true, expiresAt: new Date("2027-06-30T12:34:56.789Z") });
      expect(await keys.insert(key)).toBe("inserted");
      expect(await keys.findById(key.id)).toEqual(key);
      expect(await keys.findByLookupId(key.lookupId)).toEqual(key);
    });

    it("when a key has no expiry and is active, then neither field appears on the stored key", async () => {
      const key = anApiKey();
      await keys.insert(key);
      const found = await keys.findById(key.id);
      expect(found).toBeDefined();
      expect("expiresAt" in found!).toBe(false);
      expect("revokedAt" in found!).toBe(false);
    });

    it("when the id or lookup id is unknown, then nothing is found", async () => {
      expect(await keys.findById("key_missing")).toBeUndefined();
      expect(await keys.findByLookupId("AAAAAAAAAAAA")).toBeUndefined();
    });

    it("when the id is taken, then the second key is not stored", async () => {
      const first = anApiKey();
      await keys.insert(first);
      const second = anApiKey({ id: first.id });
      expect(await keys.insert(second)).toBe("already_exists");
      expect(await keys.findById(first.id)).toEqual(first);
      expect(await keys.findByLookupId(second.lookupId)).toBeUndefined();
    });

    it("when the lookup id is taken, then the second key is not stored", async () => {
      const first = anApiKey();
      await keys.insert(first);
      const second = anApiKey({ lookupId: first.lookupId });
      expect(await keys.insert(second)).toBe("already_exists");
      expect(await keys.findById(second.id)).toBeUndefined();
      expect(await keys.findByLookupId(first.lookupId)).toEqual(first);
    });

    it("when a key is revoked, then the revocation is stored and returned", async () => {
      const key = anApiKey();
      await keys.insert(key);
      const at = new Date("2026-02-01T10:00:00.000Z");
      expect(await keys.markRevoked(key.id, at)).toEqual({ ...key, revokedAt: at });
      expect(await keys.findById(key.id)).toEqual({ ...key, revokedAt: at });
      expect(await keys.findByLookupId(key.lookupId)).toEqual({ ...key, revokedAt: at });
    });

    it("when a revoked key is revoked again, then the first revocation time stays", async () => {
      const key = anApiKey();
      await keys.insert(key);
      const first = new Date("2026-02-01T10:00:00.000Z");
      await keys.markRevoked(key.id, first);
      expect((await keys.markRevoked(key.id, new Date("2026-03-01T10:00:00.000Z")))?.revokedAt).toEqual(
        first,
      );
      expect((await keys.findById(key.id))?.revokedAt).toEqual(first);
    });

    it("when an unknown key is revoked, then nothing is returned or created", async () => {
      expect(await keys.markRevoked("key_missing", new Date())).toBeUndefined();
      expect(await keys.findById("key_missing")).toBeUndefined();
    });

    it("when a merchant's keys are listed, then only theirs come back, newest first", async () => {
      const merchantId = newId("mer");
      const older = anApiKey({ merchantId, createdAt: new Date("2026-01-01T00:00:00.000Z") });
      const newer = anApiKey({ merchantId, livemode: true, createdAt: new Date("2026-01-02T00:00:00.000Z") });
      const otherMerchants = anApiKey({ createdAt: new Date("2026-01-03T00:00:00.000Z") });
      for (const key of [older, otherMerchants, newer]) await keys.insert(key);
      expect(await keys.listByMerchant(merchantId)).toEqual([newer, older]);
      expect(await keys.listByMerchant(newId("mer"))).toEqual([]);
    });

    it("when a test key is inserted with its secret, then it is retrievable and opens to that secret; others keep none", async () => {
      const kept = anApiKey();
      const notKept = anApiKey({ livemode: true });
      await keys.insert(kept, "sk_test_the-key-itself");
      await keys.insert(notKept);
      expect(await keys.findById(kept.id)).toEqual({ ...kept, retrievable: true });
      expect(await keys.openSecret(kept.id)).toBe("sk_test_the-key-itself");
      expect((await keys.findById(notKept.id))?.retrievable).toBe(false);
      expect(await keys.openSecret(notKept.id)).toBeUndefined();
      expect(await keys.openSecret("key_missing")).toBeUndefined();
    });

    it("when a key is made to expire, then an earlier expiry stays and a revoked key is left alone", async () => {
      const key = anApiKey();
      const revoked = anApiKey();
      await keys.insert(key);
      await keys.insert(revoked);
      const soon = new Date("2026-02-01T11:00:00.000Z");
      expect((await keys.expireBy(key.id, soon))?.expiresAt).toEqual(soon);
      expect((await keys.expireBy(key.id, new Date("2026-03-01T00:00:00.000Z")))?.expiresAt).toEqual(soon);
      const sooner = new Date("2026-02-01T10:00:00.000Z");
      expect((await keys.expireBy(key.id, sooner))?.expiresAt).toEqual(sooner);
      await keys.markRevoked(revoked.id, sooner);
      expect("expiresAt" in (await keys.expireBy(revoked.id, soon))!).toBe(false);
      expect(await keys.expireBy("key_missing", soon)).toBeUndefined();
    });

    it("when a key's use is recorded, then its last use is stored", async () => {
      const key = anApiKey();
      await keys.insert(key);
      const at = new Date("2026-02-01T10:00:00.000Z");
      await keys.recordUse(key.id, at);
      expect((await keys.findById(key.id))?.lastUsedAt).toEqual(at);
      expect((await keys.listByMerchant(key.merchantId))[0]?.lastUsedAt).toEqual(at);
    });
  });
}
