import type { Transport } from "@connectrpc/connect";
import { type Clock, createInProcessTransport } from "@gateway/platform";
import { createAccountsInterceptors, createAccountsRoutes } from "../../src/accounts-module.js";
import { createMemoryAccountsRepositories } from "../../src/adapters/memory/create-memory-accounts-repositories.js";
import { createCaptureLogger } from "./capture-logger.js";

/**
 * Every accounts service on fresh in-memory stores, behind the same interceptors as a server,
 * over Connect's in-process transport; `logs` is what it logged.
 */
export function inProcessAccounts(clock: Clock): { transport: Transport; logs: () => string } {
  const capture = createCaptureLogger();
  const transport = createInProcessTransport({
    name: "accounts",
    routes: createAccountsRoutes({
      repos: createMemoryAccountsRepositories(),
      clock,
      logger: capture.logger,
    }),
    logger: capture.logger,
    interceptors: createAccountsInterceptors(capture.logger),
  });
  return { transport, logs: capture.text };
}
