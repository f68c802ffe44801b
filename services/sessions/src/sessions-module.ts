import type { ConnectRouter } from "@connectrpc/connect";
import type { Clock, Logger } from "@gateway/platform";
import { SessionService } from "@gateway/proto";
import type { ExchangeRateProvider, SessionRepository, SessionsSettings } from "./app/ports.js";
import { createSessionServiceHandlers } from "./rpc/session-service.js";

/** The error domain in every ErrorDetail this service raises. */
export const SESSIONS_ERROR_DOMAIN = "sessions.gateway";

export interface SessionsModuleDeps {
  repo: SessionRepository;
  rates: ExchangeRateProvider;
  clock: Clock;
  logger: Logger;
  config: SessionsSettings;
}

/**
 * SessionService on a Connect router, for the distributed server (main.ts) and embedded mode
 * (createInProcessTransport) alike.
 */
export function createSessionsRoutes(deps: SessionsModuleDeps): (router: ConnectRouter) => void {
  const handlers = createSessionServiceHandlers({ repo: deps.repo, rates: deps.rates, clock: deps.clock, settings: deps.config });
  // No per-service interceptors: Connect would replace the server's list (tracing, metrics,
  // error details) with them.
  return (router) => {
    router.service(SessionService, handlers);
  };
}
