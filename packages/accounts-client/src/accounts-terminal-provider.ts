import type { Client } from "@connectrpc/connect";
import type { TerminalProvider } from "@gateway/acquirer";
import { fromConnectError, GatewayError } from "@gateway/platform";
import type { AccountsService } from "@gateway/proto";

/**
 * The merchant's terminal from accounts' ResolveTerminalCredentials, for every service that
 * calls the acquirer (sessions, refunds). Its errors keep their reason (NO_TERMINAL_CONFIGURED,
 * TERMINAL_INACTIVE: the merchant's configuration; SERVICE_UNAVAILABLE: retryable). The
 * password is only ever handed to the acquirer adapter.
 */
export function createAccountsTerminalProvider(client: Client<typeof AccountsService>): TerminalProvider {
  return {
    async terminalFor(scope) {
      let answer: { baseUrl: string; username: string; password: string };
      try {
        answer = await client.resolveTerminalCredentials({
          scope: { merchantId: scope.merchantId, livemode: scope.livemode },
        });
      } catch (err) {
        throw fromConnectError(err);
      }
      if (!/^https?:\/\//i.test(answer.baseUrl) || answer.username === "") {
        throw new GatewayError("INTERNAL", "Internal error.", {
          cause: new Error("accounts returned an incomplete terminal"),
        });
      }
      return { baseUrl: answer.baseUrl, username: answer.username, password: answer.password };
    },
  };
}
