import { D, fromMinorUnits, percentOf, toMinorUnits } from "@gateway/money";

/** A merchant's fee plan: `percent` of the amount (decimal text, 0 <= percent < 100) plus a fixed fee. */
export interface FeePlan {
  percent: string;
  /** Fixed fee in settlement currency (TND) minor units. */
  fixedMinor: bigint;
}

export const ZERO_FEE_PLAN: FeePlan = { percent: "0", fixedMinor: 0n };

export interface FeeAndNet {
  feeMinor: bigint;
  netMinor: bigint;
}

/**
 * The fee of a payment of `amountMinor` and what the merchant nets: the percentage rounded
 * half-up once to the currency's decimals, plus the fixed fee. The fee never exceeds the
 * amount, so the net is never negative (a 0.500 TND fixed fee on a 0.300 TND payment takes
 * 0.300).
 */
export function feeAndNet(amountMinor: bigint, currency: string, plan: FeePlan): FeeAndNet {
  const amount = new D(fromMinorUnits(amountMinor, currency));
  const percentFee = toMinorUnits(percentOf(amount, new D(plan.percent), currency), currency);
  const uncapped = percentFee + plan.fixedMinor;
  const feeMinor = uncapped > amountMinor ? amountMinor : uncapped < 0n ? 0n : uncapped;
  return { feeMinor, netMinor: amountMinor - feeMinor };
}
