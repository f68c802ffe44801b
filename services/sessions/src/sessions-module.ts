import type { ConnectRouter } from "@connectrpc/connect";
import { errorDetailInterceptor, type Clock, type Logger } from "@gateway/platform";
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
 * alike. Errors leave as ConnectErrors with an ErrorDetail, whatever router mounts it.
 */
export function createSessionsRoutes(deps: SessionsModuleDeps): (router: ConnectRouter) => void {
  const handlers = createSessionServiceHandlers({ repo: deps.repo, rates: deps.rates, clock: deps.clock, settings: deps.config });
  const interceptor = errorDetailInterceptor(SESSIONS_ERROR_DOMAIN, (err) => deps.logger.error({ err }, "unexpected error in SessionService"));
  return (router) => {
    router.service(SessionService, handlers, { interceptors: [interceptor] });
  };
}
