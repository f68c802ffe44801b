import { beforeEach, describe, expect, it } from "vitest";
import type { MerchantRepository } from "../../src/app/ports.js";
import { aMerchant } from "../support/api-key-fixtures.js";

export function describeMerchantRepositoryContract(
  name: string,
  factory: () => Promise<MerchantRepository>,
): void {
  describe(`MerchantRepository contract: ${name}`, () => {
    let merchants: MerchantRepository;
    beforeEach(async () => {
      merchants = await factory();
    });

    it("when a merchant is inserted, then it is found by id with every field intact", async () => {
      const merchant = aMerchant({ name: "Épicerie « Chez Salma » 🛒" });
      expect(await merchants.insert(merchant)).toBe("inserted");
      expect(await merchants.findById(merchant.id)).toEqual(merchant);
    });

    it("when the id is unknown, then nothing is found", async () => {
      expect(await merchants.findById("mer_doesnotexist")).toBeUndefined();
    });

    it("when the id is taken, then the insert reports it and the stored merchant is unchanged", async () => {
      const first = aMerchant({ name: "First" });
      await merchants.insert(first);
      expect(await merchants.insert({ ...first, name: "Second", verified: true })).toBe("already_exists");
      expect(await merchants.findById(first.id)).toEqual(first);
    });

    it("when a merchant is verified, then it is returned and stays verified", async () => {
      const merchant = aMerchant();
      await merchants.insert(merchant);
      expect(await merchants.markVerified(merchant.id)).toEqual({ ...merchant, verified: true });
      expect(await merchants.markVerified(merchant.id)).toEqual({ ...merchant, verified: true });
      expect((await merchants.findById(merchant.id))?.verified).toBe(true);
    });

    it("when an unknown merchant is verified, then nothing is returned or created", async () => {
      expect(await merchants.markVerified("mer_missing")).toBeUndefined();
      expect(await merchants.findById("mer_missing")).toBeUndefined();
    });

    it("when a returned merchant is changed by the caller, then the stored one is not", async () => {
      const merchant = aMerchant();
      await merchants.insert(merchant);
      const found = await merchants.findById(merchant.id);
      found!.verified = true;
      merchant.name = "changed after insert";
      expect((await merchants.findById(merchant.id))?.verified).toBe(false);
      expect((await merchants.findById(merchant.id))?.name).toBe("Test Shop");
    });
  });
}
