import { create } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import { parseAmount, toMinorUnits } from "@gateway/money";
import { fromConnectError, GatewayError } from "@gateway/platform";
import { AccountScopeSchema, AttemptStatus, SessionService, SessionStatus } from "@gateway/proto";
import type { PaidSessionLookup } from "../../app/ports.js";
import type { AccountScope } from "../../domain/refund.js";
import type { PaidSession } from "../../domain/refund-rules.js";

/**
 * The session as the sessions service knows it, asked over gRPC with the caller's scope (so
 * another merchant's session is simply not found). The paid amount is the session amount (in
 * its settlement currency) and the order is the one of the successful attempt. Whether the
 * acquirer settled it is not known here: the refund step tries a reversal and falls back.
 */
export function createSessionsPaidSessionLookup(sessions: Client<typeof SessionService>): PaidSessionLookup {
  return {
    async find(scope: AccountScope, sessionId: string): Promise<PaidSession | undefined> {
      let session;
      try {
        ({ session } = await sessions.getSession({ scope: create(AccountScopeSchema, scope), sessionId }));
      } catch (err) {
        const failure = fromConnectError(err);
        if (failure.reason === "NOT_FOUND") return undefined;
        throw failure;
      }
      if (!session) return undefined;
      const amount = parseAmount(session.amount, session.currency);
      if (!amount.ok) throw new GatewayError("INTERNAL", "The sessions service returned a malformed amount.", { metadata: { session_id: sessionId } });
      const paid = session.attempts.find((a) => a.status === AttemptStatus.SUCCEEDED && a.acquirerOrderId !== "");
      return {
        status: SessionStatus[session.status].replace(/^SESSION_STATUS_/, ""),
        amountMinor: toMinorUnits(amount.value, session.currency),
        currency: session.currency,
        acquirerOrderId: paid?.acquirerOrderId,
      };
    },
  };
}
