import { copyRecord } from "@gateway/platform";
import type { InsertOutcome, MerchantRepository } from "../../app/ports.js";
import type { Merchant } from "../../domain/merchant.js";

/** Merchants in a Map. Hands out copies so callers cannot change stored state by accident. */
export class InMemoryMerchantRepository implements MerchantRepository {
  private readonly byId = new Map<string, Merchant>();

  async insert(merchant: Merchant): Promise<InsertOutcome> {
    if (this.byId.has(merchant.id)) return "already_exists";
    this.byId.set(merchant.id, copyRecord(merchant));
    return "inserted";
  }

  async findById(id: string): Promise<Merchant | undefined> {
    const merchant = this.byId.get(id);
    return merchant && copyRecord(merchant);
  }

  async markVerified(id: string): Promise<Merchant | undefined> {
    const merchant = this.byId.get(id);
    if (!merchant) return undefined;
    merchant.verified = true;
    return copyRecord(merchant);
  }
}
