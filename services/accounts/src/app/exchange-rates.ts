import { GatewayError } from "@gateway/platform";
import { type ExchangeRate, parseExchangeRateInput, parseRateCurrency } from "../domain/exchange-rate.js";
import type { AccountsDeps } from "./accounts-deps.js";
import { getMerchant, requireId } from "./merchants.js";

/** The history page size when the caller names none, and the most one page may hold. */
export const DEFAULT_RATE_HISTORY_LIMIT = 50;
export const MAX_RATE_HISTORY_LIMIT = 200;

/**
 * Sets (or replaces) the merchant's rate for a currency: 1 unit of it = `rate` TND. `setBy` names
 * the merchant's dashboard user who set it (the operator's admin API passes none).
 */
export async function setExchangeRate(
  deps: AccountsDeps,
  input: { merchantId: string; currency: string; rate: string; setBy?: string },
): Promise<ExchangeRate> {
  const { currency, rate } = parseExchangeRateInput(input);
  const merchant = await getMerchant(deps, input.merchantId);
  const exchangeRate: ExchangeRate = { merchantId: merchant.id, currency, rate, updatedAt: deps.clock.now() };
  if (input.setBy !== undefined)
    exchangeRate.setBy = await requireMerchantUser(deps, merchant.id, input.setBy);
  await deps.repos.exchangeRates.upsert(exchangeRate);
  return exchangeRate;
}

/** The merchant's current rates, in currency order. */
export async function listExchangeRates(deps: AccountsDeps, merchantId: string): Promise<ExchangeRate[]> {
  const merchant = await getMerchant(deps, merchantId);
  return deps.repos.exchangeRates.listByMerchant(merchant.id);
}

/** Every rate the merchant set (one currency's when given), newest first. */
export async function listExchangeRateHistory(
  deps: AccountsDeps,
  input: { merchantId: string; currency?: string; limit?: number },
): Promise<ExchangeRate[]> {
  const currency = input.currency ? parseRateCurrency(input.currency) : undefined;
  const limit = input.limit || DEFAULT_RATE_HISTORY_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RATE_HISTORY_LIMIT) {
    throw GatewayError.validation([
      {
        field: "limit",
        code: "invalid",
        message: `limit must be an integer from 1 to ${MAX_RATE_HISTORY_LIMIT}.`,
      },
    ]);
  }
  const merchant = await getMerchant(deps, input.merchantId);
  return deps.repos.exchangeRates.listHistory(merchant.id, currency ? { currency, limit } : { limit });
}

/**
 * The user id, once it names one of the merchant's dashboard users: a rate is never attributed
 * to someone outside the merchant (NOT_FOUND, as if the user did not exist).
 */
async function requireMerchantUser(deps: AccountsDeps, merchantId: string, userId: string): Promise<string> {
  const id = requireId("user_id", userId);
  const user = await deps.repos.dashboard.users.findById(id);
  if (!user || user.merchantId !== merchantId) throw new GatewayError("NOT_FOUND", "No such dashboard user.");
  return user.id;
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
