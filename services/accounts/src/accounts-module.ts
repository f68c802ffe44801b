import { ConnectError, type ConnectRouter, type Interceptor } from "@connectrpc/connect";
import { type Clock, GatewayError, type Logger } from "@gateway/platform";
import {
  AccountsService,
  ApiKeysService,
  AuditLogService,
  BusinessVerificationService,
  DashboardUsersService,
  ExchangeRatesService,
} from "@gateway/proto";
import type { AccountsRepositories } from "./app/ports.js";
import { AccountsRpc } from "./rpc/accounts-service.js";
import { ApiKeysRpc } from "./rpc/api-keys-service.js";
import { AuditLogRpc } from "./rpc/audit-log-service.js";
import { BusinessVerificationRpc } from "./rpc/business-verification-service.js";
import { DashboardUsersRpc } from "./rpc/dashboard-users-service.js";
import { ExchangeRatesRpc } from "./rpc/exchange-rates-service.js";

/** The `domain` every accounts error detail carries. */
export const ACCOUNTS_ERROR_DOMAIN = "accounts.gateway";

export interface AccountsRoutesDeps {
  repos: AccountsRepositories;
  clock: Clock;
  logger: Logger;
}

/**
 * Registers AccountsService, DashboardUsersService, ExchangeRatesService, ApiKeysService, BusinessVerificationService and AuditLogService on a Connect router: the same routes serve the distributed process
 * (main.ts) and the embedded in-memory transport.
 */
export function createAccountsRoutes(deps: AccountsRoutesDeps): (router: ConnectRouter) => void {
  // No per-service interceptors here: Connect would replace the server's list (tracing,
  // metrics, error details) with them. Servers add `createAccountsInterceptors` instead.
  return (router) => {
    router.service(AccountsService, new AccountsRpc(deps));
    router.service(DashboardUsersService, new DashboardUsersRpc(deps));
    router.service(ExchangeRatesService, new ExchangeRatesRpc(deps));
    router.service(ApiKeysService, new ApiKeysRpc(deps));
    router.service(BusinessVerificationService, new BusinessVerificationRpc(deps));
    router.service(AuditLogService, new AuditLogRpc(deps));
  };
}

/**
 * Accounts' own server interceptors, installed inside the standard ones (startServiceServer's
 * and createInProcessTransport's `interceptors`): they see the GatewayError with its in-process
 * cause before it becomes a ConnectError.
 */
export function createAccountsInterceptors(logger: Logger): Interceptor[] {
  return [logExpectedFailures(logger)];
}

/**
 * Logs the failures worth an operator's eye that are not internal errors: an unreachable
 * database (warn), rejected API keys (debug, with the reason callers never see) and refused dashboard
 * sign-ins and sessions (debug).
 */
function logExpectedFailures(logger: Logger): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (err) {
      if (err instanceof GatewayError && err.reason === "SERVICE_UNAVAILABLE") {
        logger.warn(
          { err: err.cause instanceof Error ? err.cause : err, procedure: req.method.name },
          "accounts dependency unavailable",
        );
      } else if (err instanceof GatewayError && err.reason === "UNAUTHORIZED") {
        // Authenticate says why a key was refused in the cause ("API key rejected: revoked");
        // a dashboard sign-in or session refusal has no cause and nothing more to say.
        const why = err.cause instanceof Error ? err.cause.message : err.message;
        logger.debug({ procedure: req.method.name, why }, "caller not authenticated");
      } else if (err instanceof ConnectError) {
        logger.debug({ procedure: req.method.name, code: err.code }, "accounts request failed");
      }
      throw err;
    }
  };
}
