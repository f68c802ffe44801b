import { defaultFeePlan, type FeePlan, parseFeePlanInput } from "../domain/fee-plan.js";
import type { AccountsDeps } from "./accounts-deps.js";
import { getMerchant, requireId } from "./merchants.js";

/** Sets (or replaces) the merchant's fee plan. */
export async function setFeePlan(
  deps: AccountsDeps,
  input: { merchantId: string; percent: string; fixed: string },
): Promise<FeePlan> {
  const { percent, fixedMinor } = parseFeePlanInput(input);
  const merchant = await getMerchant(deps, input.merchantId);
  const plan = { merchantId: merchant.id, percent, fixedMinor, updatedAt: deps.clock.now() };
  await deps.repos.feePlans.upsert(plan);
  return plan;
}

/** The merchant's plan, or the zero plan when none was set; NOT_FOUND for an unknown merchant. */
export async function getFeePlan(deps: AccountsDeps, merchantId: string): Promise<FeePlan> {
  const id = requireId("merchant_id", merchantId);
  const stored = await deps.repos.feePlans.find(id);
  if (stored) return stored;
  // Only a missing plan needs the merchant looked up: settling a payment reads the plan once.
  const merchant = await getMerchant(deps, id);
  return defaultFeePlan(merchant.id);
}
