import { parseAmount } from "@gateway/money";
import { AttemptStatus, type Session, SessionStatus } from "@gateway/proto";
import type { PaidSession } from "../../domain/refund-rules.js";

/**
 * A gateway.sessions.v1.Session (GetSession's answer, or the session in a SessionEvent) as the
 * refund rules see it: the paid amount is the session amount (in its settlement currency) and
 * the order is the one of the successful attempt. Whether the acquirer settled it is not known
 * here: the refund step tries a reversal and falls back. Undefined when the amount is malformed.
 */
export function paidSessionFromProto(session: Session): PaidSession | undefined {
  const amount = parseAmount(session.amount, session.currency);
  if (!amount.ok) return undefined;
  const paid = session.attempts.find((a) => a.status === AttemptStatus.SUCCEEDED && a.acquirerOrderId !== "");
  return {
    status: SessionStatus[session.status].replace(/^SESSION_STATUS_/, ""),
    amountMinor: amount.minor,
    currency: session.currency,
    acquirerOrderId: paid?.acquirerOrderId,
    merchantReference: session.merchantReference,
    orderNumber: session.orderNumber,
    webhookUrl: session.webhookUrl,
  };
}
