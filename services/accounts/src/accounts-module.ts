import { ConnectError, type ConnectRouter, type Interceptor } from "@connectrpc/connect";
import { errorDetailInterceptor, GatewayError, type Clock, type Logger } from "@gateway/platform";
import { AccountsService } from "@gateway/proto";
import type { AccountsRepositories } from "./app/ports.js";
import { AccountsRpc } from "./rpc/accounts-service.js";

/** The `domain` every accounts error detail carries. */
export const ACCOUNTS_ERROR_DOMAIN = "accounts.gateway";

export interface AccountsRoutesDeps {
  repos: AccountsRepositories;
  clock: Clock;
  logger: Logger;
}

/**
 * Registers AccountsService on a Connect router: the same routes serve the distributed process
 * (main.ts) and the embedded in-memory transport. Every error leaves as a ConnectError with an
 * ErrorDetail, so callers get reasons, never internals.
 */
export function createAccountsRoutes(deps: AccountsRoutesDeps): (router: ConnectRouter) => void {
  const toErrorDetail = errorDetailInterceptor(ACCOUNTS_ERROR_DOMAIN, (err) => {
    deps.logger.error({ err }, "accounts request failed unexpectedly");
  });
  // Outermost first: the logger sees the GatewayError (with its in-process cause) before it is
  // turned into a ConnectError.
  const interceptors = [toErrorDetail, logExpectedFailures(deps.logger)];
  return (router) => {
    router.service(AccountsService, new AccountsRpc(deps), { interceptors });
  };
}

/**
 * Logs the failures worth an operator's eye that are not internal errors: an unreachable
 * database (warn) and rejected API keys (debug, with the reason that callers never see).
 */
function logExpectedFailures(logger: Logger): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (err) {
      if (err instanceof GatewayError && err.reason === "SERVICE_UNAVAILABLE") {
        logger.warn({ err: err.cause instanceof Error ? err.cause : err, procedure: req.method.name }, "accounts dependency unavailable");
      } else if (err instanceof GatewayError && err.reason === "UNAUTHORIZED") {
        const why = err.cause instanceof Error ? err.cause.message : "rejected";
        logger.debug({ procedure: req.method.name, why }, "API key rejected");
      } else if (err instanceof ConnectError) {
        logger.debug({ procedure: req.method.name, code: err.code }, "accounts request failed");
      }
      throw err;
    }
  };
}
