import type { Acquirer } from "@gateway/acquirer";
import { GatewayError } from "@gateway/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registrationDeadline } from "../../src/app/payment-deps.js";
import { startPayment } from "../../src/app/start-payment.js";
import { newAttempt } from "../../src/domain/attempts.js";
import { statusChanges } from "../../src/domain/session-state-machine.js";
import { type PaymentHarness, startPaymentHarness, tokenOf } from "../support/payment-harness.js";

// Issue 15 item 11: Pays on one session never queue behind another Pay's acquirer call.

/** The harness's acquirer, counting calls, with registrations held until `release()`. */
function gatedAcquirer(inner: Acquirer) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const calls = { registerOrder: 0, getOrderStatus: 0 };
  const acquirer: Acquirer = {
    ...inner,
    async registerOrder(input) {
      calls.registerOrder++;
      await gate;
      return inner.registerOrder(input);
    },
    async getOrderStatus(input) {
      calls.getOrderStatus++;
      return inner.getOrderStatus(input);
    },
  };
  return { acquirer, calls, release };
}

describe("concurrent Pays on one session", () => {
  let h: PaymentHarness;

  beforeAll(async () => {
    h = await startPaymentHarness();
  });

  afterAll(async () => {
    await h.close();
  });

  it("50 Pays in one process while the first registers: one order, one card page for all, no status calls", async () => {
    const session = await h.newSession();
    const token = tokenOf(session);
    const gated = gatedAcquirer(h.deps.acquirer);
    const deps = { ...h.deps, acquirer: gated.acquirer };
    const pays = Array.from({ length: 50 }, () => startPayment(deps, token, "en"));
    while (gated.calls.registerOrder === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    gated.release();
    const results = await Promise.all(pays);
    expect(new Set(results.map((r) => r.redirectUrl)).size).toBe(1);
    expect(gated.calls).toEqual({ registerOrder: 1, getOrderStatus: 0 });
    expect((await h.repo.findById(session.scope, session.id))?.attempts).toHaveLength(1);
  });

  it("a double click whose second Pay reads the stored attempt before the first registers it joins the first", async () => {
    const session = await h.newSession();
    const token = tokenOf(session);
    // The first Pay's store answers late: the second Pay's read sees the INITIATED attempt
    // while the first has not yet started registering it.
    let delayed = false;
    const repo = h.deps.repo;
    const slowStore: typeof repo = Object.create(repo);
    slowStore.updateIf = async (...args) => {
      const result = await repo.updateIf(...args);
      if (!delayed) {
        delayed = true;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return result;
    };
    const deps = { ...h.deps, repo: slowStore };
    const first = startPayment(deps, token, "en");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await startPayment(deps, token, "en");
    expect(second).toEqual(await first);
    expect((await h.repo.findById(session.scope, session.id))?.attempts).toHaveLength(1);
  });

  it("a Pay while another process registers the attempt answers at once: payment in progress, nothing stored", async () => {
    const session = await h.newSession();
    const token = tokenOf(session);
    // What another sessions replica's Pay stores before it calls the acquirer.
    const now = h.clock.now();
    const attempt = newAttempt(session, token, now);
    const stored = await h.repo.updateIf(session, {
      ...statusChanges("PENDING", now),
      attempts: [attempt],
      reconcileAt: registrationDeadline(now, h.deps.acquirerTimeoutMs),
    });
    expect(stored.updated).toBe(true);
    const err = await startPayment(h.deps, token, "en").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).reason).toBe("INVALID_STATE");
    expect((err as GatewayError).metadata).toEqual({ session_id: session.id, payment_in_progress: "true" });
    expect((await h.repo.findById(session.scope, session.id))?.attempts).toEqual([attempt]);
  });
});
