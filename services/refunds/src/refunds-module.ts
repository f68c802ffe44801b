import type { ConnectRouter } from "@connectrpc/connect";
import { RefundService } from "@gateway/proto";
import type { RefundDeps } from "./app/refund-deps.js";
import { createRefundServiceHandlers } from "./rpc/refund-service.js";

/** The error domain in every ErrorDetail this service raises. */
export const REFUNDS_ERROR_DOMAIN = "refunds.gateway";

export type RefundsModuleDeps = RefundDeps;

/**
 * RefundService on a Connect router, for the distributed server (main.ts) and embedded mode
 * (createInProcessTransport) alike.
 */
export function createRefundsRoutes(deps: RefundsModuleDeps): (router: ConnectRouter) => void {
  const handlers = createRefundServiceHandlers(deps);
  return (router) => {
    router.service(RefundService, handlers);
  };
}
