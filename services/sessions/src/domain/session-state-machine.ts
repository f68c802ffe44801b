import { GatewayError } from "@gateway/platform";
import type { Session, SessionChanges, SessionStatus } from "./session.js";

/**
 * The session state machine as one table: for every trigger, what happens in every state.
 * A new trigger is a new row that must say what it does in all seven states, so no state is
 * forgotten.
 *
 * Triggers:
 * - cancel: the merchant cancels.
 * - startPayment: the buyer presses Pay on the hosted page; a new attempt is created.
 * - attemptRegistered: the acquirer accepted the attempt's order; the buyer goes to its card page.
 * - paymentSucceeded: the acquirer approved an attempt.
 * - declinedCanRetry / declinedExhausted: the acquirer declined an attempt, with tries left or
 *   not (declines >= max_attempts); the caller counts, the table only says where each goes.
 * - attemptAbandoned: an attempt ended without a decision (the card page timed out, the order
 *   could not be registered). Not the buyer's try: it never counts toward max_attempts.
 * - expire: the session's lifetime ended (the sweeper). An attempt still in flight is asked
 *   about first; what the acquirer approves after this is given back (late payment).
 */
export const SESSION_TRIGGERS = [
  "cancel",
  "startPayment",
  "attemptRegistered",
  "paymentSucceeded",
  "declinedCanRetry",
  "declinedExhausted",
  "attemptAbandoned",
  "expire",
] as const;
export type SessionTrigger = (typeof SESSION_TRIGGERS)[number];

export type Rule =
  | { kind: "move"; to: SessionStatus }
  /** The session keeps its status and the call goes on (idempotent repeat, another attempt). */
  | { kind: "stay" }
  /**
   * The attempt's outcome is stored on the attempt, but the session, already final, does not
   * take it: no status change and no event. An approval recorded so is a duplicate payment.
   */
  | { kind: "recordOnly" }
  | { kind: "reject"; error: (session: Session) => GatewayError };

const move = (to: SessionStatus): Rule => ({ kind: "move", to });
const stay: Rule = { kind: "stay" };
const recordOnly: Rule = { kind: "recordOnly" };

const alreadyTerminal: Rule = {
  kind: "reject",
  error: (s) =>
    new GatewayError(
      "SESSION_TERMINAL",
      `The session is already ${s.status.toLowerCase()} and can no longer change.`,
      {
        metadata: { session_id: s.id, status: s.status },
      },
    ),
};

// CANCELED is not one of the terminal states (docs/api/sessions.md#session-states), but it is final for payment.
const canceled: Rule = {
  kind: "reject",
  error: (s) =>
    new GatewayError("SESSION_TERMINAL", "The session was canceled and can no longer be paid.", {
      metadata: { session_id: s.id, status: s.status },
    }),
};

const alreadyProcessing: Rule = {
  kind: "reject",
  error: (s) =>
    new GatewayError("INVALID_STATE", "A payment is already in progress on this session.", {
      metadata: { session_id: s.id, status: s.status },
    }),
};

const noPaymentStarted: Rule = {
  kind: "reject",
  error: (s) =>
    new GatewayError("INVALID_STATE", "No payment was started on this session.", {
      metadata: { session_id: s.id, status: s.status },
    }),
};

export const SESSION_TRANSITIONS: {
  readonly [T in SessionTrigger]: { readonly [S in SessionStatus]: Rule };
} = {
  // While PROCESSING the buyer may be on the acquirer's card page. The cancel use case asks the
  // acquirer first (an approval makes the session SUCCEEDED and the cancel is refused); an
  // approval arriving after the cancel is a late payment, given back automatically.
  cancel: {
    CREATED: move("CANCELED"),
    PENDING: move("CANCELED"),
    PROCESSING: move("CANCELED"),
    CANCELED: stay,
    SUCCEEDED: alreadyTerminal,
    FAILED: alreadyTerminal,
    EXPIRED: alreadyTerminal,
  },
  startPayment: {
    CREATED: move("PENDING"),
    PENDING: stay,
    PROCESSING: alreadyProcessing,
    CANCELED: canceled,
    SUCCEEDED: alreadyTerminal,
    FAILED: alreadyTerminal,
    EXPIRED: alreadyTerminal,
  },
  attemptRegistered: {
    CREATED: noPaymentStarted,
    PENDING: move("PROCESSING"),
    PROCESSING: alreadyProcessing,
    CANCELED: canceled,
    SUCCEEDED: alreadyTerminal,
    FAILED: alreadyTerminal,
    EXPIRED: alreadyTerminal,
  },
  // docs/api/sessions.md#session-states: a payable session whose payment is approved -> SUCCEEDED.
  paymentSucceeded: {
    CREATED: move("SUCCEEDED"),
    PENDING: move("SUCCEEDED"),
    PROCESSING: move("SUCCEEDED"),
    CANCELED: recordOnly,
    SUCCEEDED: recordOnly,
    FAILED: recordOnly,
    EXPIRED: recordOnly,
  },
  declinedCanRetry: {
    CREATED: move("PENDING"),
    PENDING: move("PENDING"),
    PROCESSING: move("PENDING"),
    CANCELED: recordOnly,
    SUCCEEDED: recordOnly,
    FAILED: recordOnly,
    EXPIRED: recordOnly,
  },
  declinedExhausted: {
    CREATED: move("FAILED"),
    PENDING: move("FAILED"),
    PROCESSING: move("FAILED"),
    CANCELED: recordOnly,
    SUCCEEDED: recordOnly,
    FAILED: recordOnly,
    EXPIRED: recordOnly,
  },
  attemptAbandoned: {
    CREATED: stay,
    PENDING: stay,
    PROCESSING: move("PENDING"),
    CANCELED: recordOnly,
    SUCCEEDED: recordOnly,
    FAILED: recordOnly,
    EXPIRED: recordOnly,
  },
  // docs/api/sessions.md#session-states: a payable session whose lifetime ends -> EXPIRED.
  expire: {
    CREATED: move("EXPIRED"),
    PENDING: move("EXPIRED"),
    PROCESSING: move("EXPIRED"),
    CANCELED: stay,
    SUCCEEDED: stay,
    FAILED: stay,
    EXPIRED: stay,
  },
};

const FINAL: ReadonlySet<SessionStatus> = new Set(["SUCCEEDED", "FAILED", "EXPIRED", "CANCELED"]);

export type Outcome = { kind: "move"; to: SessionStatus } | { kind: "stay" } | { kind: "recordOnly" };

/** What `trigger` does to `session`; throws the rule's GatewayError when the state forbids it. */
export function outcomeOf(session: Session, trigger: SessionTrigger): Outcome {
  const rule = SESSION_TRANSITIONS[trigger][session.status];
  if (rule.kind === "reject") throw rule.error(session);
  return rule;
}

/** The fields a move writes: the status, and `completedAt` when the new state is final. */
export function statusChanges(to: SessionStatus, now: Date): SessionChanges {
  const changes: SessionChanges = { status: to, updatedAt: now };
  if (FINAL.has(to)) changes.completedAt = now;
  return changes;
}

export type Decision = { changed: false } | { changed: true; changes: SessionChanges };

/**
 * What `trigger` does to `session` at `now`: the changes to store, nothing, or a thrown
 * GatewayError when the state forbids it. Pure: the caller stores the changes atomically.
 */
export function decide(session: Session, trigger: SessionTrigger, now: Date): Decision {
  const outcome = outcomeOf(session, trigger);
  if (outcome.kind !== "move") return { changed: false };
  return { changed: true, changes: statusChanges(outcome.to, now) };
}

/**
 * Refuses anything that needs a payable session (a new link, a payment): the rule of
 * `startPayment` for the state says why (SESSION_TERMINAL for final states).
 */
export function assertPayable(session: Session): void {
  if (session.status === "CREATED" || session.status === "PENDING" || session.status === "PROCESSING") return;
  const rule = SESSION_TRANSITIONS.startPayment[session.status];
  if (rule.kind === "reject") throw rule.error(session);
}
