import { GatewayError } from "@gateway/platform";
import type { Session, SessionChanges, SessionStatus } from "./session.js";

/**
 * The session state machine as one table: for every trigger, what happens in every state.
 * A new trigger (checkout opened, attempt started, payment settled, lifetime ended) is a new
 * row that must say what it does in all seven states, so no state is forgotten.
 */
export type SessionTrigger = "cancel";

type Rule =
  | { kind: "move"; to: SessionStatus }
  /** Idempotent repeat: the session is returned as it is. */
  | { kind: "stay" }
  | { kind: "reject"; error: (session: Session) => GatewayError };

const move = (to: SessionStatus): Rule => ({ kind: "move", to });
const stay: Rule = { kind: "stay" };

const alreadyTerminal: Rule = {
  kind: "reject",
  error: (s) =>
    new GatewayError("SESSION_TERMINAL", `The session is already ${s.status.toLowerCase()} and can no longer change.`, {
      metadata: { session_id: s.id, status: s.status },
    }),
};

// While PROCESSING the buyer is on the acquirer's card page or the payment is settling. Until
// attempts can be abandoned at the acquirer, canceling then could race a successful payment,
// so it is refused with 409 conflict; the merchant may retry once the attempt settles.
const paymentInProgress: Rule = {
  kind: "reject",
  error: (s) =>
    new GatewayError("CONFLICT", "A payment is in progress on this session; try again once it has settled.", {
      metadata: { session_id: s.id, status: s.status },
    }),
};

export const SESSION_TRANSITIONS: { readonly [T in SessionTrigger]: { readonly [S in SessionStatus]: Rule } } = {
  cancel: {
    CREATED: move("CANCELED"),
    PENDING: move("CANCELED"),
    PROCESSING: paymentInProgress,
    CANCELED: stay,
    SUCCEEDED: alreadyTerminal,
    FAILED: alreadyTerminal,
    EXPIRED: alreadyTerminal,
  },
};

const FINAL: ReadonlySet<SessionStatus> = new Set(["SUCCEEDED", "FAILED", "EXPIRED", "CANCELED"]);

export type Decision = { changed: false } | { changed: true; changes: SessionChanges };

/**
 * What `trigger` does to `session` at `now`: the changes to store, nothing, or a thrown
 * GatewayError when the state forbids it. Pure: the caller stores the changes atomically.
 */
export function decide(session: Session, trigger: SessionTrigger, now: Date): Decision {
  const rule = SESSION_TRANSITIONS[trigger][session.status];
  switch (rule.kind) {
    case "stay":
      return { changed: false };
    case "reject":
      throw rule.error(session);
    case "move": {
      const changes: SessionChanges = { status: rule.to, updatedAt: now };
      if (FINAL.has(rule.to)) changes.completedAt = now;
      return { changed: true, changes };
    }
  }
}
