import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import { fromConnectError } from "@gateway/platform";
import {
  type AccountScope,
  type Delivery,
  type PaymentAttempt,
  type Refund,
  RefundStatus,
  RefundType,
  type Session,
  type SessionRefundsService,
  type SessionService,
  type WebhookService,
} from "@gateway/proto";

/** How a refund reads on the session page; a manual one is never shown as done. */
export type RefundState = "succeeded" | "waiting_on_acquirer" | "failed";

export interface RefundRow {
  id: string;
  type: "FULL" | "PARTIAL";
  /** Exact decimal string in `currency`, as the refunds service gave it. */
  amount: string;
  currency: string;
  state: RefundState;
  /** The acquirer's reason when it could not confirm the refund ("" otherwise). */
  acquirerMessage: string;
  createdAt: Date;
}

export interface SessionDetail {
  session: Session;
  attempts: PaymentAttempt[];
  /** "unavailable" when the webhooks service is not wired (the page says so, not "none"). */
  deliveries: Delivery[] | "unavailable";
  refunds: RefundRow[] | "unavailable";
}

export interface SessionDetailClients {
  sessions: Client<typeof SessionService>;
  webhooks?: Client<typeof WebhookService>;
  sessionRefunds?: Client<typeof SessionRefundsService>;
}

/** The deliveries one page shows; the delivery log has the rest. */
const DELIVERIES_SHOWN = 50;

/** PENDING_MANUAL: the acquirer could not confirm it and operations have not resolved it yet. */
export function refundRow(refund: Refund): RefundRow {
  const state: RefundState =
    refund.status === RefundStatus.SUCCEEDED
      ? "succeeded"
      : refund.status === RefundStatus.FAILED
        ? "failed"
        : "waiting_on_acquirer";
  return {
    id: refund.id,
    type: refund.refundType === RefundType.FULL ? "FULL" : "PARTIAL",
    amount: refund.amount,
    currency: refund.currency,
    state,
    acquirerMessage: refund.acquirerErrorMessage,
    createdAt: refund.createdAt ? timestampDate(refund.createdAt) : new Date(0),
  };
}

/**
 * Everything the session page shows, read in the signed-in merchant's scope: undefined when the
 * session is not this account's (the page answers 404, whether it exists elsewhere or not).
 */
export async function loadSessionDetail(
  clients: SessionDetailClients,
  scope: AccountScope,
  sessionId: string,
): Promise<SessionDetail | undefined> {
  let session: Session | undefined;
  try {
    ({ session } = await clients.sessions.getSession({ scope, sessionId }));
  } catch (err) {
    if (fromConnectError(err).reason === "NOT_FOUND") return undefined;
    throw err;
  }
  if (!session) return undefined;
  const [deliveries, refunds] = await Promise.all([
    clients.webhooks
      ? clients.webhooks
          .listDeliveries({ scope, sessionId, page: { limit: DELIVERIES_SHOWN } })
          .then((r) => r.deliveries)
      : ("unavailable" as const),
    clients.sessionRefunds
      ? clients.sessionRefunds.listSessionRefunds({ scope, sessionId }).then((r) => r.refunds.map(refundRow))
      : ("unavailable" as const),
  ]);
  return { session, attempts: session.attempts, deliveries, refunds };
}
