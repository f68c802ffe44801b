import type { Client } from "@connectrpc/connect";
import { fromConnectError } from "@gateway/platform";
import type { AccountsService } from "@gateway/proto";
import type { MerchantDirectory } from "../../app/ports.js";

/** Merchant names from accounts' GetMerchant; an unknown merchant has none. */
export function createAccountsMerchantDirectory(client: Client<typeof AccountsService>): MerchantDirectory {
  return {
    async merchantName(merchantId) {
      try {
        const { merchant } = await client.getMerchant({ merchantId });
        return merchant?.name;
      } catch (err) {
        const gatewayError = fromConnectError(err);
        if (gatewayError.reason === "NOT_FOUND") return undefined;
        throw gatewayError;
      }
    },
  };
}
