import { GatewayError } from "@gateway/platform";
import {
  type PaidSessionRecord,
  paymentDisagreement,
  recordFromSession,
} from "../domain/paid-session-record.js";
import type { AccountScope } from "../domain/refund.js";
import { assertRefundable, type PaidSession } from "../domain/refund-rules.js";
import type { RefundDeps } from "./refund-deps.js";

/** A succeeded session ready to refund: its recorded payment, confirmed by the sessions service. */
export interface ConfirmedPayment {
  record: PaidSessionRecord;
  /** The sessions service's answer (settlement, when it knows it). */
  session: PaidSession & { acquirerOrderId: string };
}

/**
 * What the session to refund was paid. The sessions service is asked every time (it alone says
 * whether the session exists for this account and succeeded); what it says must agree with what
 * the session.succeeded event recorded. When the event has not arrived yet, the answer is
 * recorded instead, and the event is then compared with it.
 *
 * A disagreement refuses the refund with a retryable error and is logged for operators: it
 * means one of the two services holds a wrong payment, and no money moves until someone looks.
 */
export async function confirmPaidSession(
  deps: Pick<RefundDeps, "sessions" | "paidSessions" | "clock" | "logger">,
  scope: AccountScope,
  sessionId: string,
): Promise<ConfirmedPayment> {
  const [session, recorded] = await Promise.all([
    deps.sessions.find(scope, sessionId),
    deps.paidSessions.find(scope, sessionId),
  ]);
  if (session === undefined) throw GatewayError.notFound("session", sessionId);
  assertRefundable(session);
  const record =
    recorded ??
    (await deps.paidSessions.record(recordFromSession(scope, sessionId, session, deps.clock.now()))).record;
  const disagreement = paymentDisagreement(record, { ...session, scope });
  if (disagreement !== undefined) {
    deps.logger.error(
      {
        sessionId,
        merchantId: scope.merchantId,
        livemode: scope.livemode,
        recordedFrom: record.source,
        disagreement,
      },
      "the recorded payment of a session disagrees with the sessions service; refunds of it are refused until an operator corrects the record",
    );
    throw new GatewayError(
      "SERVICE_UNAVAILABLE",
      "The session's payment could not be confirmed; retry the refund later.",
      {
        metadata: { session_id: sessionId },
      },
    );
  }
  return { record, session };
}
