import type { OrderStatus } from "@gateway/acquirer";
import { GatewayError } from "@gateway/platform";
import { isOpen } from "../domain/attempts.js";
import { redirectAfterSettlement } from "../domain/redirects.js";
import type { PaymentAttempt, Session, SettlementSource } from "../domain/session.js";
import { settle } from "../domain/settlement.js";
import { attemptOutcomeOf } from "./acquirer-outcome.js";
import { contention, MAX_ROUNDS, type PaymentDeps } from "./payment-deps.js";
import { SingleFlight } from "./single-flight.js";
import { storeChange } from "./store-change.js";

export interface SettledAttempt {
  session: Session;
  attempt: PaymentAttempt;
}

export interface SettlementResult extends SettledAttempt {
  /** Where to send the buyer next. */
  redirectUrl: string;
}

/** Acquirer status calls of Pays and cancels running in this process, by acquirer order id. */
const statusQueries = new SingleFlight<OrderStatus>();
const SHARED_STATUS_SOURCES: ReadonlySet<SettlementSource> = new Set<SettlementSource>([
  "checkout",
  "cancel",
]);

function attemptByOrderId(session: Session, acquirerOrderId: string): PaymentAttempt | undefined {
  return session.attempts.find((a) => a.acquirerOrderId === acquirerOrderId);
}

/**
 * Settles the attempt the acquirer knows as `acquirerOrderId`: asks the acquirer for the
 * order's status and stores the outcome. Whoever calls first (the buyer's return, the
 * acquirer's callback, the reconciler) settles it; the others get the same outcome back and
 * no second event. A still pending order leaves everything as it is. Acquirer failures
 * (PROCESSOR_UNAVAILABLE) propagate and the attempt stays PROCESSING, to be settled later.
 */
export async function settleAttempt(
  deps: PaymentDeps,
  acquirerOrderId: string,
  source: SettlementSource,
): Promise<SettlementResult> {
  if (acquirerOrderId === "") {
    throw GatewayError.validation([
      { field: "acquirer_order_id", code: "required", message: "acquirer_order_id is required." },
    ]);
  }
  const session = await deps.repo.findByAcquirerOrderId(acquirerOrderId);
  if (!session) {
    throw new GatewayError("NOT_FOUND", "No payment attempt is registered under this acquirer order id.", {
      metadata: { acquirer_order_id: acquirerOrderId },
    });
  }
  const settled = await settleOpenAttempt(deps, session, acquirerOrderId, source);
  return {
    ...settled,
    redirectUrl: redirectAfterSettlement(settled.session, settled.attempt, deps.publicBaseUrl),
  };
}

/**
 * The settlement itself, for `session` as read by the caller. The store is changed with a
 * compare-and-set on the session's version, and only while the attempt is still open, so two
 * racing settlements produce one outcome and one event.
 */
export async function settleOpenAttempt(
  deps: PaymentDeps,
  session: Session,
  acquirerOrderId: string,
  source: SettlementSource,
): Promise<SettledAttempt> {
  const attempt = attemptByOrderId(session, acquirerOrderId);
  if (!attempt)
    throw new Error(`session ${session.id} has no attempt with acquirer order ${acquirerOrderId}`);
  if (!isOpen(attempt)) return { session, attempt };

  // Pays and cancels of one order in this process share one status call rather than each
  // making its own (50 Pays at once are one question); the buyer's return, the acquirer's
  // callback and the reconciler ask afresh, as they come after something changed.
  const ask = async () =>
    deps.acquirer.getOrderStatus({
      terminal: await deps.terminals.terminalFor(session.scope),
      acquirerOrderId,
    });
  const status = SHARED_STATUS_SOURCES.has(source)
    ? await statusQueries.run(acquirerOrderId, ask)
    : await ask();
  const outcome = await attemptOutcomeOf(
    status,
    () => deps.fees.feePlanFor(session.scope.merchantId),
    deps.logger,
  );
  if (outcome.kind === "pending") return { session, attempt };

  let current: Session = session;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const open = attemptByOrderId(current, acquirerOrderId);
    // Settled by someone else in between: theirs is the outcome.
    if (!open || !isOpen(open)) return { session: current, attempt: open ?? attempt };
    const now = deps.clock.now();
    const settlement = settle(current, open, outcome, now, source);
    const result = await storeChange(deps, current, settlement.changes, settlement.events);
    if (result.updated) {
      logSettlement(deps, result.session, settlement.attempt, source);
      deps.observer?.attemptSettled(settlement.attempt);
      return {
        session: result.session,
        attempt: attemptByOrderId(result.session, acquirerOrderId) ?? settlement.attempt,
      };
    }
    if (!result.current) throw GatewayError.notFound("session", session.id);
    current = result.current;
  }
  throw contention(session.id);
}

function logSettlement(
  deps: PaymentDeps,
  session: Session,
  attempt: PaymentAttempt,
  source: SettlementSource,
): void {
  const fields = {
    sessionId: session.id,
    attemptId: attempt.id,
    acquirerOrderId: attempt.acquirerOrderId,
    status: attempt.status,
    source,
  };
  if (attempt.duplicatePayment) {
    // Money was taken that the session does not keep. Reconciliation reverses it; until then
    // an operator must see this.
    deps.logger.error(
      { ...fields, sessionStatus: session.status },
      "payment approved on a session that can no longer take it: to be reversed",
    );
    return;
  }
  deps.logger.info(
    { ...fields, sessionStatus: session.status, failureCode: attempt.failureCode },
    "payment attempt settled",
  );
}
