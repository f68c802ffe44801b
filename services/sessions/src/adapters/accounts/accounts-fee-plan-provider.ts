import type { Client } from "@connectrpc/connect";
import { D, SETTLEMENT_CURRENCY, toMinorUnits } from "@gateway/money";
import { fromConnectError, GatewayError } from "@gateway/platform";
import type { AccountsService } from "@gateway/proto";
import type { FeePlanProvider } from "../../app/ports.js";
import { type FeePlan, ZERO_FEE_PLAN } from "../../domain/fees.js";

const PERCENT = /^(0|[1-9][0-9]?)(\.[0-9]{1,4})?$/;
/** TND, at most its 3 decimals, zero allowed. */
const FIXED_TND = /^(0|[1-9][0-9]*)(\.[0-9]{1,3})?$/;

function unusable(why: string): GatewayError {
  return new GatewayError("INTERNAL", "Internal error.", {
    cause: new Error(`accounts returned an unusable fee plan: ${why}`),
  });
}

/**
 * Fee plans from accounts' GetFeePlan: `percent` (0 <= percent < 100, at most 4 decimals) and
 * `fixed` (TND, 3 decimals). A merchant without a plan has the zero plan. A malformed plan is
 * an internal error, never a guessed fee.
 */
export function createAccountsFeePlanProvider(client: Client<typeof AccountsService>): FeePlanProvider {
  return {
    async feePlanFor(merchantId): Promise<FeePlan> {
      let plan: { percent: string; fixed: string } | undefined;
      try {
        ({ feePlan: plan } = await client.getFeePlan({ merchantId }));
      } catch (err) {
        throw fromConnectError(err);
      }
      if (!plan) return ZERO_FEE_PLAN;
      const percent = plan.percent === "" ? "0" : plan.percent;
      if (!PERCENT.test(percent)) throw unusable(`percent ${JSON.stringify(plan.percent)}`);
      const fixed = plan.fixed === "" ? "0" : plan.fixed;
      if (!FIXED_TND.test(fixed)) throw unusable(`fixed ${JSON.stringify(plan.fixed)}`);
      return { percent, fixedMinor: toMinorUnits(new D(fixed), SETTLEMENT_CURRENCY) };
    },
  };
}
