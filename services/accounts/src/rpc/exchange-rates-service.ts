import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import type { Logger } from "@gateway/platform";
import {
  type ExchangeRatesService,
  ListExchangeRateHistoryResponseSchema,
  ListExchangeRatesResponseSchema,
  type MerchantExchangeRate,
  MerchantExchangeRateSchema,
  SetMerchantExchangeRateResponseSchema,
} from "@gateway/proto";
import type { AccountsDeps } from "../app/accounts-deps.js";
import { listExchangeRateHistory, listExchangeRates, setExchangeRate } from "../app/exchange-rates.js";
import { requireId } from "../app/merchants.js";
import type { ExchangeRate } from "../domain/exchange-rate.js";

function rateToProto(rate: ExchangeRate): MerchantExchangeRate {
  return create(MerchantExchangeRateSchema, {
    merchantId: rate.merchantId,
    currency: rate.currency,
    rate: rate.rate,
    setAt: timestampFromDate(rate.updatedAt),
    setByUserId: rate.setBy ?? "",
  });
}

/** The merchant's currency settings, as the dashboard reads and changes them. */
export class ExchangeRatesRpc implements ServiceImpl<typeof ExchangeRatesService> {
  constructor(private readonly deps: AccountsDeps & { logger: Logger }) {}

  async setMerchantExchangeRate(req: { merchantId: string; currency: string; rate: string; userId: string }) {
    // A dashboard change always names its user; only the operator's own RPC may set one without.
    const setBy = requireId("user_id", req.userId);
    const rate = await setExchangeRate(this.deps, {
      merchantId: req.merchantId,
      currency: req.currency,
      rate: req.rate,
      setBy,
    });
    this.deps.logger.info(
      { merchantId: rate.merchantId, currency: rate.currency, rate: rate.rate, userId: setBy },
      "exchange rate set by merchant user",
    );
    return create(SetMerchantExchangeRateResponseSchema, { exchangeRate: rateToProto(rate) });
  }

  async listExchangeRates(req: { merchantId: string }) {
    const rates = await listExchangeRates(this.deps, req.merchantId);
    return create(ListExchangeRatesResponseSchema, { exchangeRates: rates.map(rateToProto) });
  }

  async listExchangeRateHistory(req: { merchantId: string; currency: string; limit: number }) {
    const rates = await listExchangeRateHistory(this.deps, {
      merchantId: req.merchantId,
      ...(req.currency ? { currency: req.currency } : {}),
      limit: req.limit,
    });
    return create(ListExchangeRateHistoryResponseSchema, { exchangeRates: rates.map(rateToProto) });
  }
}
