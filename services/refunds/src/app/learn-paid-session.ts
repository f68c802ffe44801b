import type { Logger } from "@gateway/platform";
import { type PaidSessionRecord, paymentDisagreement } from "../domain/paid-session-record.js";
import type { PaidSessionStore } from "./ports.js";

/**
 * Records what a session.succeeded event says the session was paid. Idempotent: a redelivered
 * event finds its own record. When the session was recorded before (from the sessions service,
 * for a refund that came first) and the event disagrees, the earlier record stays and the
 * disagreement is logged for operators; refunds of the session then refuse until it is resolved.
 */
export async function learnPaidSession(
  deps: { paidSessions: PaidSessionStore; logger: Logger },
  learned: PaidSessionRecord,
): Promise<void> {
  const { stored, record } = await deps.paidSessions.record(learned);
  if (stored) return;
  const disagreement = paymentDisagreement(record, learned);
  if (disagreement !== undefined) {
    deps.logger.error(
      {
        sessionId: learned.sessionId,
        merchantId: learned.scope.merchantId,
        recordedFrom: record.source,
        disagreement,
      },
      "a session.succeeded event disagrees with the payment already recorded for the session; the record is kept",
    );
  }
}
