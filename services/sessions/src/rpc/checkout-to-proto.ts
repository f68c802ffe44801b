import { GatewayError } from "@gateway/platform";
import {
  CheckoutState as ProtoCheckoutState,
  SettlementSource as ProtoSettlementSource,
} from "@gateway/proto";
import type { CheckoutState } from "../domain/checkout-state.js";
import type { SettlementSource } from "../domain/session.js";

export const CHECKOUT_STATE_TO_PROTO: { readonly [S in CheckoutState]: ProtoCheckoutState } = {
  PAYABLE: ProtoCheckoutState.PAYABLE,
  PROCESSING: ProtoCheckoutState.PROCESSING,
  SUCCEEDED: ProtoCheckoutState.SUCCEEDED,
  FAILED: ProtoCheckoutState.FAILED,
  CLOSED: ProtoCheckoutState.CLOSED,
  LINK_EXPIRED: ProtoCheckoutState.LINK_EXPIRED,
};

const SOURCE_FROM_PROTO: ReadonlyMap<ProtoSettlementSource, SettlementSource> = new Map([
  [ProtoSettlementSource.RETURN, "return"],
  [ProtoSettlementSource.CALLBACK, "callback"],
  [ProtoSettlementSource.RECONCILER, "reconciler"],
]);

/** Who asks for the settlement; it is recorded on the attempt, so it must be said. */
export function settlementSourceFromProto(source: ProtoSettlementSource): SettlementSource {
  const known = SOURCE_FROM_PROTO.get(source);
  if (known === undefined) {
    throw GatewayError.validation([
      { field: "source", code: "required", message: "source must be RETURN, CALLBACK or RECONCILER." },
    ]);
  }
  return known;
}
