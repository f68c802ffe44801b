import type { RegisteredOrder, Terminal } from "@gateway/acquirer";
import { currencyInfo, SETTLEMENT_CURRENCY } from "@gateway/money";
import { GatewayError } from "@gateway/platform";
import {
  abandonedAttempt,
  isOpen,
  MAX_ATTEMPT_RECORDS,
  newAttempt,
  openAttempt,
  withAttempt,
} from "../domain/attempts.js";
import { assertLinkUsable, linkOf } from "../domain/checkout-state.js";
import type { CheckoutLink, PaymentAttempt, Session, SessionChanges } from "../domain/session.js";
import {
  assertPayable,
  outcomeOf,
  SESSION_TRANSITIONS,
  statusChanges,
} from "../domain/session-state-machine.js";
import { contention, MAX_ROUNDS, type PaymentDeps, registrationDeadline } from "./payment-deps.js";
import { settleOpenAttempt } from "./settle-attempt.js";
import { SingleFlight } from "./single-flight.js";

export interface StartPaymentResult {
  /** The acquirer's card page. */
  redirectUrl: string;
  attemptId: string;
}

export const CHECKOUT_LANGUAGES: ReadonlySet<string> = new Set(["en", "fr", "ar"]);

/** Longest a buyer gets on the acquirer's card page. */
export const MAX_CARD_PAGE_SECONDS = 20 * 60;

/** Where the acquirer sends the buyer back (success and failure alike); it appends `orderId`. */
export function acquirerReturnUrl(publicBaseUrl: string): string {
  return `${publicBaseUrl.replace(/\/+$/, "")}/checkout/return`;
}

/**
 * The buyer pressed Pay on the page of link `token`: a new attempt is stored (INITIATED, the
 * session CREATED -> PENDING), its order registered at the acquirer, the attempt moved to
 * PROCESSING (session PENDING -> PROCESSING), and the acquirer's card page returned.
 *
 * Attempts run one at a time, and a Pay never queues behind another's acquirer call. An attempt
 * still PROCESSING is first settled with the acquirer (concurrent Pays in this process share
 * one status call): when it is still waiting for the card, the buyer resumes that same card
 * page (no second order that could be paid twice); when it ended, a new attempt starts, or the
 * outcome stops the call (SESSION_TERMINAL once it succeeded). An attempt being registered by
 * a concurrent call (a double click) is joined when that call runs in this process (the same
 * card page); otherwise the answer is at once INVALID_STATE with `payment_in_progress` (the
 * buyer's "payment in progress" page), never a wait on the store.
 *
 * Failures before anything reaches the acquirer (no terminal, terminal inactive, accounts
 * unreachable) store nothing. A failed registration abandons the attempt, which does not
 * count toward max_attempts, and the error propagates as it is.
 */
export async function startPayment(
  deps: PaymentDeps,
  token: string,
  language: string,
): Promise<StartPaymentResult> {
  if (language !== "" && !CHECKOUT_LANGUAGES.has(language)) {
    throw GatewayError.validation([
      { field: "language", code: "invalid", message: "language must be one of en, fr, ar." },
    ]);
  }
  // A double click in this process joins the first Pay from its start: between storing the
  // attempt and registering it there is a window in which the second Pay could read the stored
  // INITIATED attempt before the first one is known to be registering it.
  return paysOnLink.run(token, () => startPaymentOnLink(deps, token, language));
}

async function startPaymentOnLink(
  deps: PaymentDeps,
  token: string,
  language: string,
): Promise<StartPaymentResult> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const { session, link } = await checkoutOf(deps, token);
    assertPayable(session);
    const now = deps.clock.now();
    assertLinkUsable(session, link, now);

    const open = openAttempt(session);
    if (open?.status === "PROCESSING" && open.acquirerOrderId !== undefined) {
      const settled = await settleOpenAttempt(deps, session, open.acquirerOrderId, "checkout");
      if (isOpen(settled.attempt)) return resume(settled.attempt);
      continue; // it ended: decide again on the session as it is now
    }
    let interrupted: PaymentAttempt | undefined;
    if (open?.status === "INITIATED") {
      const registering = registrations.joining(open.id);
      if (registering) return await registering;
      if (now.getTime() > registrationDeadline(open.createdAt, deps.acquirerTimeoutMs).getTime()) {
        interrupted = open;
      } else {
        throw paymentInProgress(session.id);
      }
    }

    if (session.attempts.length >= MAX_ATTEMPT_RECORDS) {
      throw new GatewayError("INVALID_STATE", "This session has had too many payment attempts.", {
        metadata: { session_id: session.id },
      });
    }
    // Before anything is stored: a merchant without a usable terminal leaves no attempt behind.
    const terminal = await deps.terminals.terminalFor(session.scope);
    const started = await storeNewAttempt(deps, session, token, interrupted);
    if (!started) continue; // the session changed meanwhile
    const { attempt } = started;
    return await registrations.run(attempt.id, () =>
      register(deps, started.session, attempt, link, terminal, language),
    );
  }
  throw new GatewayError("CONFLICT", "The checkout is being changed by another request; try again.");
}

async function checkoutOf(
  deps: PaymentDeps,
  token: string,
): Promise<{ session: Session; link: CheckoutLink }> {
  const session = token === "" ? undefined : await deps.repo.findByCheckoutToken(token);
  const link = session ? linkOf(session, token) : undefined;
  if (!session || !link) throw new GatewayError("NOT_FOUND", "No checkout exists for this link.");
  return { session, link };
}

function resume(attempt: PaymentAttempt): StartPaymentResult {
  if (attempt.formUrl === undefined)
    throw new Error(`attempt ${attempt.id} is PROCESSING without a card page`);
  return { redirectUrl: attempt.formUrl, attemptId: attempt.id };
}

/** Pays running in this process, by checkout link token. */
const paysOnLink = new SingleFlight<StartPaymentResult>();

/** Registrations running in this process, by attempt id: a concurrent Pay joins one instead of waiting on the store. */
const registrations = new SingleFlight<StartPaymentResult>();

/** Another call is registering this session's attempt (elsewhere): the buyer's "payment in progress" page. */
function paymentInProgress(sessionId: string): GatewayError {
  return new GatewayError(
    "INVALID_STATE",
    "A payment is being started on this session; try again in a moment.",
    {
      metadata: { session_id: sessionId, payment_in_progress: "true" },
    },
  );
}

/** Stores the new INITIATED attempt with the session's move; undefined when the session changed meanwhile. */
async function storeNewAttempt(
  deps: PaymentDeps,
  session: Session,
  token: string,
  interrupted: PaymentAttempt | undefined,
): Promise<{ session: Session; attempt: PaymentAttempt } | undefined> {
  const now = deps.clock.now();
  let attempts = session.attempts;
  if (interrupted) {
    deps.logger.warn(
      { sessionId: session.id, attemptId: interrupted.id },
      "abandoning a payment attempt whose start was interrupted",
    );
    attempts = withAttempt(attempts, abandonedAttempt(interrupted, "start_interrupted", now));
  }
  const attempt = newAttempt(session, token, now);
  const rule = outcomeOf(session, "startPayment");
  const changes: SessionChanges = {
    ...(rule.kind === "move" ? statusChanges(rule.to, now) : { updatedAt: now }),
    attempts: [...attempts, attempt],
    // Should this process die before the order is registered, the sweeper abandons the attempt.
    reconcileAt: registrationDeadline(now, deps.acquirerTimeoutMs),
  };
  const result = await deps.repo.updateIf(session, changes);
  return result.updated ? { session: result.session, attempt } : undefined;
}

/**
 * The buyer's time on the card page: until the link or the session expires, whichever comes
 * first (the link never outlives the session), at most 20 minutes, at least one second.
 */
export function cardPageSeconds(link: CheckoutLink, session: Session, now: Date): number {
  const until = Math.min(link.expiresAt.getTime(), session.expiresAt.getTime());
  return Math.max(1, Math.min(MAX_CARD_PAGE_SECONDS, Math.floor((until - now.getTime()) / 1000)));
}

/** Why a registration failed, as the abandoned attempt's failure code. */
function registrationFailureCode(err: unknown): string {
  if (err instanceof GatewayError && err.reason === "PROCESSOR_UNAVAILABLE") return "processor_unavailable";
  if (err instanceof GatewayError && err.reason === "TERMINAL_REJECTED") return "terminal_rejected";
  return "acquirer_refused";
}

async function register(
  deps: PaymentDeps,
  session: Session,
  attempt: PaymentAttempt,
  link: CheckoutLink,
  terminal: Terminal,
  language: string,
): Promise<StartPaymentResult> {
  const returnUrl = acquirerReturnUrl(deps.publicBaseUrl);
  let order: RegisteredOrder;
  try {
    order = await deps.acquirer.registerOrder({
      terminal,
      orderNumber: attempt.acquirerOrderNumber,
      amountMinor: session.amountMinor,
      currencyNumeric: currencyInfo(SETTLEMENT_CURRENCY)!.numeric,
      returnUrl,
      failUrl: returnUrl,
      description: session.description ?? session.orderNumber,
      sessionTimeoutSecs: cardPageSeconds(link, session, deps.clock.now()),
      ...(language !== "" ? { language } : {}),
    });
  } catch (err) {
    await abandonAfterFailedStart(deps, session, attempt.id, registrationFailureCode(err));
    throw err;
  }
  await markRegistered(deps, session, attempt.id, order);
  return { redirectUrl: order.formUrl, attemptId: attempt.id };
}

/**
 * The registered attempt goes PROCESSING with the session (PENDING -> PROCESSING). When the
 * session can no longer take it (canceled meanwhile), the attempt is abandoned and the buyer
 * never gets the card page, so the order at the acquirer can never be paid.
 */
async function markRegistered(
  deps: PaymentDeps,
  session: Session,
  attemptId: string,
  order: RegisteredOrder,
): Promise<void> {
  let current: Session = session;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const attempt = current.attempts.find((a) => a.id === attemptId);
    if (attempt?.status !== "INITIATED") {
      // Taken as interrupted by another call: handing out this card page now could take a
      // payment nobody would settle.
      throw new GatewayError(
        "PROCESSOR_UNAVAILABLE",
        "Starting the payment took too long; please try again.",
        {
          metadata: { session_id: session.id, attempt_id: attemptId },
        },
      );
    }
    const now = deps.clock.now();
    const rule = SESSION_TRANSITIONS.attemptRegistered[current.status];
    if (rule.kind === "reject") {
      await deps.repo.updateIf(current, {
        updatedAt: now,
        attempts: withAttempt(current.attempts, abandonedAttempt(attempt, "session_closed", now)),
      });
      throw rule.error(current);
    }
    const processing: PaymentAttempt = {
      ...attempt,
      status: "PROCESSING",
      acquirerOrderId: order.acquirerOrderId,
      formUrl: order.formUrl,
    };
    const changes: SessionChanges = {
      ...(rule.kind === "move" ? statusChanges(rule.to, now) : { updatedAt: now }),
      attempts: withAttempt(current.attempts, processing),
      // A buyer who never comes back (and an acquirer callback that never arrives) is caught here.
      reconcileAt: new Date(now.getTime() + deps.reconcileIntervalMs),
    };
    const result = await deps.repo.updateIf(current, changes);
    if (result.updated) return;
    if (!result.current) throw GatewayError.notFound("session", session.id);
    current = result.current;
  }
  throw contention(session.id);
}

/** Abandons the attempt after its registration failed; a storage failure here is logged, never hides the cause. */
async function abandonAfterFailedStart(
  deps: PaymentDeps,
  session: Session,
  attemptId: string,
  failureCode: string,
): Promise<void> {
  let current: Session | undefined = session;
  try {
    for (let round = 0; round < MAX_ROUNDS && current; round++) {
      const attempt: PaymentAttempt | undefined = current.attempts.find((a) => a.id === attemptId);
      if (attempt?.status !== "INITIATED") return;
      const now = deps.clock.now();
      const rule = outcomeOf(current, "attemptAbandoned");
      const changes: SessionChanges = {
        ...(rule.kind === "move" ? statusChanges(rule.to, now) : { updatedAt: now }),
        attempts: withAttempt(current.attempts, abandonedAttempt(attempt, failureCode, now)),
      };
      const result = await deps.repo.updateIf(current, changes);
      if (result.updated) {
        deps.observer?.attemptSettled({ status: "ABANDONED", failureCode });
        return;
      }
      current = result.current;
    }
  } catch (err) {
    // The attempt stays INITIATED; the next start takes it as interrupted once it is stale.
    deps.logger.error(
      { err, sessionId: session.id, attemptId },
      "could not record the failed start of a payment attempt",
    );
  }
}
