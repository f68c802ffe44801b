import { GatewayError } from "@gateway/platform";
import { type ExchangeRate, parseExchangeRateInput, parseRateCurrency } from "../domain/exchange-rate.js";
import type { AccountsDeps } from "./accounts-deps.js";
import { getMerchant, requireId } from "./merchants.js";

/** Sets (or replaces) the merchant's rate for a currency: 1 unit of it = `rate` TND. */
export async function setExchangeRate(
  deps: AccountsDeps,
  input: { merchantId: string; currency: string; rate: string },
): Promise<ExchangeRate> {
  const { currency, rate } = parseExchangeRateInput(input);
  const merchant = await getMerchant(deps, input.merchantId);
  const exchangeRate: ExchangeRate = { merchantId: merchant.id, currency, rate, updatedAt: deps.clock.now() };
  await deps.repos.exchangeRates.upsert(exchangeRate);
  return exchangeRate;
}

/**
 * The configured rate. NOT_FOUND (metadata `currency`) when there is none: callers turn that
 * into the merchant-facing `currency_unsupported` violation.
 */
export async function getExchangeRate(
  deps: AccountsDeps,
  input: { merchantId: string; currency: string },
): Promise<ExchangeRate> {
  const merchantId = requireId("merchant_id", input.merchantId);
  const currency = parseRateCurrency(input.currency);
  const rate = await deps.repos.exchangeRates.find(merchantId, currency);
  if (!rate) {
    throw new GatewayError("NOT_FOUND", `No exchange rate is configured for ${currency}.`, {
      metadata: { currency },
    });
  }
  return rate;
}
