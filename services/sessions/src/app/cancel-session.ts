import { GatewayError } from "@gateway/platform";
import { openAttempt } from "../domain/attempts.js";
import type { AccountScope, Session } from "../domain/session.js";
import { decide } from "../domain/session-state-machine.js";
import { contention, MAX_ROUNDS, type PaymentDeps } from "./payment-deps.js";
import { settleOpenAttempt } from "./settle-attempt.js";

/**
 * Cancels a session (CREATED, PENDING or PROCESSING -> CANCELED; CANCELED is returned
 * unchanged). Read, decide with the state machine, then write only if nobody changed the
 * session in between; a lost race re-reads and decides again, so concurrent cancels all see
 * CANCELED and a cancel racing a payment never overwrites it.
 *
 * With a payment in flight the acquirer is asked first: an approval makes the session
 * SUCCEEDED (and the cancel is refused as for any paid session), a decline is recorded. When
 * the buyer is still on the card page, or the acquirer cannot answer, the session is canceled
 * all the same: the attempt stays open for the sweeper, and an approval arriving later is given
 * back at the acquirer automatically (session.late_payment_returned).
 */
export async function cancelSession(deps: PaymentDeps, scope: AccountScope, id: string): Promise<Session> {
  let session = id === "" ? undefined : await deps.repo.findById(scope, id);
  let askedAcquirer = false;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (!session) throw GatewayError.notFound("session", id);
    if (session.status === "PROCESSING" && !askedAcquirer) {
      askedAcquirer = true;
      session = await settleInFlight(deps, session);
      continue;
    }
    const decision = decide(session, "cancel", deps.clock.now());
    if (!decision.changed) return session;
    const result = await deps.repo.updateIf(session, decision.changes);
    if (result.updated) {
      if (openAttempt(result.session))
        deps.logger.info(
          { sessionId: id },
          "session canceled with a payment in flight; a late approval will be given back",
        );
      return result.session;
    }
    session = result.current;
  }
  throw contention(id);
}

/** The session after asking the acquirer about its attempt in flight; as it was when the acquirer cannot say. */
async function settleInFlight(deps: PaymentDeps, session: Session): Promise<Session> {
  const open = openAttempt(session);
  if (open?.acquirerOrderId === undefined) return session;
  try {
    return (await settleOpenAttempt(deps, session, open.acquirerOrderId, "cancel")).session;
  } catch (err) {
    deps.logger.warn(
      { err, sessionId: session.id, attemptId: open.id },
      "could not ask the acquirer before canceling; the sweeper will",
    );
    return (await deps.repo.findById(session.scope, session.id)) ?? session;
  }
}
