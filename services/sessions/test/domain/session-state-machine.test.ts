import { GatewayError } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { SESSION_TRANSITIONS, decide } from "../../src/domain/session-state-machine.js";
import { SESSION_STATUSES, type Session, type SessionStatus } from "../../src/domain/session.js";
import { newScope, sessionFixture } from "../support/fixtures.js";

const now = new Date(Date.UTC(2026, 0, 1, 12));

function inStatus(status: SessionStatus): Session {
  return { ...sessionFixture(newScope()), status };
}

function rejection(status: SessionStatus): GatewayError {
  try {
    decide(inStatus(status), "cancel", now);
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error(`cancel in ${status} was not rejected`);
}

describe("cancel", () => {
  it.each(["CREATED", "PENDING"] as const)("when a %s session is canceled, then it moves to CANCELED and is completed now", (status) => {
    expect(decide(inStatus(status), "cancel", now)).toEqual({ changed: true, changes: { status: "CANCELED", updatedAt: now, completedAt: now } });
  });

  it("when a CANCELED session is canceled again, then nothing changes", () => {
    expect(decide(inStatus("CANCELED"), "cancel", now)).toEqual({ changed: false });
  });

  it.each(["SUCCEEDED", "FAILED", "EXPIRED"] as const)("when a %s session is canceled, then it fails with SESSION_TERMINAL", (status) => {
    const err = rejection(status);
    expect(err.reason).toBe("SESSION_TERMINAL");
    expect(err.metadata.status).toBe(status);
  });

  it("when a payment is in progress, then cancel fails with CONFLICT", () => {
    const err = rejection("PROCESSING");
    expect(err.reason).toBe("CONFLICT");
    expect(err.message).toContain("A payment is in progress");
  });

  it("the table says what every trigger does in every state", () => {
    for (const rules of Object.values(SESSION_TRANSITIONS)) expect(Object.keys(rules).sort()).toEqual([...SESSION_STATUSES].sort());
  });
});
