import { type Client, Code, ConnectError } from "@connectrpc/connect";
import { formatRate, parseRate } from "@gateway/money";
import { fromConnectError, GatewayError } from "@gateway/platform";
import type { AccountsService } from "@gateway/proto";
import type { ExchangeRateProvider } from "../../app/ports.js";

/**
 * Exchange rates from the accounts service. "None configured" (NOT_FOUND) is an answer, not a
 * failure; anything else (accounts down: SERVICE_UNAVAILABLE) propagates so the create fails
 * retryably instead of reporting a currency as unsupported.
 */
export function createAccountsRateProvider(client: Client<typeof AccountsService>): ExchangeRateProvider {
  return {
    async rateFor(merchantId, currency) {
      let rate: string;
      try {
        ({ rate } = await client.getExchangeRate({ merchantId, currency }));
      } catch (err) {
        if (err instanceof ConnectError && err.code === Code.NotFound) return undefined;
        const gatewayError = fromConnectError(err);
        if (gatewayError.reason === "NOT_FOUND") return undefined;
        throw gatewayError;
      }
      const parsed = parseRate(rate);
      if (!parsed.ok) {
        throw new GatewayError("INTERNAL", "Internal error.", {
          cause: new Error(`accounts returned an unusable rate for ${currency}: ${parsed.message}`),
        });
      }
      return formatRate(parsed.value);
    },
  };
}
