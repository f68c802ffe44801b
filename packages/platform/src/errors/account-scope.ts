import type { AccountScope as ProtoScope } from "@gateway/proto";
import { GatewayError } from "./gateway-error.js";

/** The account and mode a call acts for, as every service's domain holds it. */
export interface AccountScopeValue {
  merchantId: string;
  livemode: boolean;
}

/**
 * The scope the edge derived from the API key (or the admin path), read from a request. A call
 * without one is refused outright: no service ever acts for "no account".
 */
export function scopeFromProto(scope: ProtoScope | undefined): AccountScopeValue {
  if (!scope || scope.merchantId === "")
    throw new GatewayError("UNAUTHORIZED", "The call does not name a merchant account.");
  return { merchantId: scope.merchantId, livemode: scope.livemode };
}
