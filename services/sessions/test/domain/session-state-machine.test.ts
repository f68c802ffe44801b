import { GatewayError } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { SESSION_STATUSES, type Session, type SessionStatus } from "../../src/domain/session.js";
import {
  assertPayable,
  decide,
  outcomeOf,
  SESSION_TRANSITIONS,
  SESSION_TRIGGERS,
  type SessionTrigger,
} from "../../src/domain/session-state-machine.js";
import { newScope, sessionFixture } from "../support/fixtures.js";

const now = new Date(Date.UTC(2026, 0, 1, 12));

function inStatus(status: SessionStatus): Session {
  return { ...sessionFixture(newScope()), status };
}

/**
 * The expected table, written out by hand: a status is a move there, "stay" keeps the status
 * and goes on, "record" stores the attempt only, and an error reason is a refusal.
 */
type Expected = SessionStatus | "stay" | "record" | "SESSION_TERMINAL" | "CONFLICT" | "INVALID_STATE";
const T = "SESSION_TERMINAL";
const EXPECTED: { [Tr in SessionTrigger]: { [S in SessionStatus]: Expected } } = {
  //                   CREATED          PENDING        PROCESSING       CANCELED   SUCCEEDED   FAILED     EXPIRED
  cancel: {
    CREATED: "CANCELED",
    PENDING: "CANCELED",
    PROCESSING: "CANCELED",
    CANCELED: "stay",
    SUCCEEDED: T,
    FAILED: T,
    EXPIRED: T,
  },
  startPayment: {
    CREATED: "PENDING",
    PENDING: "stay",
    PROCESSING: "INVALID_STATE",
    CANCELED: T,
    SUCCEEDED: T,
    FAILED: T,
    EXPIRED: T,
  },
  attemptRegistered: {
    CREATED: "INVALID_STATE",
    PENDING: "PROCESSING",
    PROCESSING: "INVALID_STATE",
    CANCELED: T,
    SUCCEEDED: T,
    FAILED: T,
    EXPIRED: T,
  },
  paymentSucceeded: {
    CREATED: "SUCCEEDED",
    PENDING: "SUCCEEDED",
    PROCESSING: "SUCCEEDED",
    CANCELED: "record",
    SUCCEEDED: "record",
    FAILED: "record",
    EXPIRED: "record",
  },
  declinedCanRetry: {
    CREATED: "PENDING",
    PENDING: "PENDING",
    PROCESSING: "PENDING",
    CANCELED: "record",
    SUCCEEDED: "record",
    FAILED: "record",
    EXPIRED: "record",
  },
  declinedExhausted: {
    CREATED: "FAILED",
    PENDING: "FAILED",
    PROCESSING: "FAILED",
    CANCELED: "record",
    SUCCEEDED: "record",
    FAILED: "record",
    EXPIRED: "record",
  },
  attemptAbandoned: {
    CREATED: "stay",
    PENDING: "stay",
    PROCESSING: "PENDING",
    CANCELED: "record",
    SUCCEEDED: "record",
    FAILED: "record",
    EXPIRED: "record",
  },
  expire: {
    CREATED: "EXPIRED",
    PENDING: "EXPIRED",
    PROCESSING: "EXPIRED",
    CANCELED: "stay",
    SUCCEEDED: "stay",
    FAILED: "stay",
    EXPIRED: "stay",
  },
};

const FINAL = new Set<SessionStatus>(["SUCCEEDED", "FAILED", "EXPIRED", "CANCELED"]);

const rows = SESSION_TRIGGERS.flatMap((trigger) =>
  SESSION_STATUSES.map((status) => [trigger, status, EXPECTED[trigger][status]] as const),
);

describe("the session state table", () => {
  it("says what every trigger does in every state", () => {
    expect(Object.keys(SESSION_TRANSITIONS).sort()).toEqual([...SESSION_TRIGGERS].sort());
    for (const rules of Object.values(SESSION_TRANSITIONS))
      expect(Object.keys(rules).sort()).toEqual([...SESSION_STATUSES].sort());
  });

  it.each(rows)("%s in %s: %s", (trigger, status, expected) => {
    const session = inStatus(status);
    if (expected === "SESSION_TERMINAL" || expected === "CONFLICT" || expected === "INVALID_STATE") {
      let err: unknown;
      try {
        outcomeOf(session, trigger);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(GatewayError);
      expect((err as GatewayError).reason).toBe(expected);
      expect((err as GatewayError).metadata).toMatchObject({ session_id: session.id, status });
      return;
    }
    const outcome = outcomeOf(session, trigger);
    if (expected === "stay") expect(outcome).toEqual({ kind: "stay" });
    else if (expected === "record") expect(outcome).toEqual({ kind: "recordOnly" });
    else {
      expect(outcome).toEqual({ kind: "move", to: expected });
      const changes = {
        status: expected,
        updatedAt: now,
        ...(FINAL.has(expected) ? { completedAt: now } : {}),
      };
      expect(decide(session, trigger, now)).toEqual({ changed: true, changes });
    }
  });

  it("never moves a session out of a final state", () => {
    for (const trigger of SESSION_TRIGGERS) {
      for (const status of FINAL) {
        const rule = SESSION_TRANSITIONS[trigger][status];
        expect(rule.kind === "move" && rule.to !== status, `${trigger} in ${status}`).toBe(false);
      }
    }
  });

  it("only ever reaches SUCCEEDED through a payment and FAILED through the last decline", () => {
    for (const trigger of SESSION_TRIGGERS) {
      for (const status of SESSION_STATUSES) {
        const rule = SESSION_TRANSITIONS[trigger][status];
        if (rule.kind !== "move") continue;
        if (rule.to === "SUCCEEDED") expect(trigger).toBe("paymentSucceeded");
        if (rule.to === "FAILED") expect(trigger).toBe("declinedExhausted");
      }
    }
  });
});

describe("cancel", () => {
  it.each(["CREATED", "PENDING", "PROCESSING"] as const)(
    "when a %s session is canceled, then it moves to CANCELED and is completed now",
    (status) => {
      expect(decide(inStatus(status), "cancel", now)).toEqual({
        changed: true,
        changes: { status: "CANCELED", updatedAt: now, completedAt: now },
      });
    },
  );

  it("when a CANCELED session is canceled again, then nothing changes", () => {
    expect(decide(inStatus("CANCELED"), "cancel", now)).toEqual({ changed: false });
  });
});

describe("assertPayable", () => {
  it.each(["CREATED", "PENDING", "PROCESSING"] as const)(
    "when the session is %s, then it passes",
    (status) => {
      expect(() => assertPayable(inStatus(status))).not.toThrow();
    },
  );

  it.each(["SUCCEEDED", "FAILED", "EXPIRED", "CANCELED"] as const)(
    "when the session is %s, then it is SESSION_TERMINAL",
    (status) => {
      expect(() => assertPayable(inStatus(status))).toThrow(GatewayError);
      try {
        assertPayable(inStatus(status));
      } catch (err) {
        expect((err as GatewayError).reason).toBe("SESSION_TERMINAL");
      }
    },
  );
});
