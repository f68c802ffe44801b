import { create } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import { fromConnectError, GatewayError } from "@gateway/platform";
import { AccountScopeSchema, type Session, type SessionService } from "@gateway/proto";
import type { PaidSessionLookup } from "../../app/ports.js";
import type { AccountScope } from "../../domain/refund.js";
import type { PaidSession } from "../../domain/refund-rules.js";
import { paidSessionFromProto } from "./paid-session-from-proto.js";

/**
 * The session as the sessions service knows it, asked over gRPC with the caller's scope (so
 * another merchant's session is simply not found).
 */
export function createSessionsPaidSessionLookup(sessions: Client<typeof SessionService>): PaidSessionLookup {
  return {
    async find(scope: AccountScope, sessionId: string): Promise<PaidSession | undefined> {
      let session: Session | undefined;
      try {
        ({ session } = await sessions.getSession({ scope: create(AccountScopeSchema, scope), sessionId }));
      } catch (err) {
        const failure = fromConnectError(err);
        if (failure.reason === "NOT_FOUND") return undefined;
        throw failure;
      }
      if (!session) return undefined;
      const paid = paidSessionFromProto(session);
      if (paid === undefined)
        throw new GatewayError("INTERNAL", "The sessions service returned a malformed amount.", {
          metadata: { session_id: sessionId },
        });
      return paid;
    },
  };
}
