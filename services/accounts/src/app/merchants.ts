import { GatewayError, newId } from "@gateway/platform";
import { type Merchant, newMerchant } from "../domain/merchant.js";
import type { AccountsDeps } from "./accounts-deps.js";

export function requireId(field: string, value: string): string {
  const id = value.trim();
  if (id.length === 0)
    throw GatewayError.validation([{ field, code: "required", message: `${field} is required.` }]);
  return id;
}

export async function createMerchant(deps: AccountsDeps, input: { name: string }): Promise<Merchant> {
  const merchant = newMerchant({ id: newId("mer"), name: input.name, createdAt: deps.clock.now() });
  const outcome = await deps.repos.merchants.insert(merchant);
  // 24 random base62 characters: a collision means something is badly wrong, not bad luck.
  if (outcome === "already_exists")
    throw new GatewayError("INTERNAL", "Internal error.", { cause: new Error("merchant id collision") });
  return merchant;
}

export async function getMerchant(deps: AccountsDeps, merchantId: string): Promise<Merchant> {
  const id = requireId("merchant_id", merchantId);
  const merchant = await deps.repos.merchants.findById(id);
  if (!merchant) throw GatewayError.notFound("merchant", id);
  return merchant;
}

/** Marks the merchant verified (business verification approved); repeating it changes nothing. */
export async function verifyMerchant(deps: AccountsDeps, merchantId: string): Promise<Merchant> {
  const id = requireId("merchant_id", merchantId);
  const merchant = await deps.repos.merchants.markVerified(id);
  if (!merchant) throw GatewayError.notFound("merchant", id);
  return merchant;
}
