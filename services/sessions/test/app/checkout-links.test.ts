import { createLogger, GatewayError, ManualClock } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { createMemorySessionRepository } from "../../src/adapters/memory/in-memory-session-repository.js";
import { createCheckout } from "../../src/app/create-checkout.js";
import { createSession } from "../../src/app/create-session.js";
import { getCheckout } from "../../src/app/get-checkout.js";
import type { PaymentDeps } from "../../src/app/payment-deps.js";
import { startPayment } from "../../src/app/start-payment.js";
import type { PaymentAttempt, Session, SessionStatus } from "../../src/domain/session.js";
import { createProtoSessionEventEncoder } from "../../src/rpc/session-event-encoder.js";
import {
  ACTIVE_TERMINALS,
  createInput,
  fakeRates,
  LIFETIMES,
  newScope,
  SETTINGS,
} from "../support/fixtures.js";
import { fakeFees, fakeMerchants, fakeTerminals, unreachableAcquirer } from "../support/payment-fakes.js";

const MINUTE = 60_000;

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof GatewayError) return err.reason;
    throw err;
  }
  throw new Error("expected a GatewayError");
}

function setup() {
  const repo = createMemorySessionRepository();
  const clock = new ManualClock(Date.UTC(2026, 4, 1, 10));
  const checkoutDeps = {
    repo,
    clock,
    checkoutLinkLifetimeMs: LIFETIMES.checkoutLinkLifetimeMs,
    checkoutLinkLimit: 5,
  };
  const viewDeps = { repo, clock, merchants: fakeMerchants({}, "Café Sidi Bou") };
  const paymentDeps: PaymentDeps = {
    repo,
    acquirer: unreachableAcquirer,
    terminals: fakeTerminals(),
    fees: fakeFees(),
    encoder: createProtoSessionEventEncoder(SETTINGS.publicBaseUrl),
    clock,
    logger: createLogger({ service: "sessions-test", level: "silent" }),
    publicBaseUrl: SETTINGS.publicBaseUrl,
    acquirerTimeoutMs: 1_000,
    reconcileIntervalMs: 60_000,
  };
  const newSession = async (overrides: Parameters<typeof createInput>[1] = {}) =>
    (
      await createSession(
        { repo, rates: fakeRates({}), terminals: ACTIVE_TERMINALS, clock, lifetimes: LIFETIMES },
        createInput(newScope(), overrides),
      )
    ).session;
  return { repo, clock, checkoutDeps, viewDeps, paymentDeps, newSession };
}

async function force(
  repo: ReturnType<typeof setup>["repo"],
  session: Session,
  changes: { status?: SessionStatus; attempts?: PaymentAttempt[] },
): Promise<Session> {
  const result = await repo.updateIf(session, changes);
  if (!result.updated) throw new Error("could not force the session's state");
  return result.session;
}

function attempt(
  status: PaymentAttempt["status"],
  n: number,
  token: string,
  failureCode?: string,
): PaymentAttempt {
  return {
    id: `pa_${n}`,
    attemptNumber: n,
    status,
    acquirerOrderNumber: `PG-X-${n}`,
    checkoutToken: token,
    createdAt: new Date(Date.UTC(2026, 4, 1, 10)),
    ...(failureCode ? { failureCode } : {}),
  };
}

describe("createCheckout", () => {
  it("when a link is created, then it becomes the session's current link and the old one keeps working", async () => {
    const { repo, clock, checkoutDeps, newSession } = setup();
    const session = await newSession();
    clock.advance(MINUTE);
    const link = await createCheckout(checkoutDeps, session.scope, session.id);
    expect(link.token).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(link.expiresAt).toEqual(new Date(clock.now().getTime() + LIFETIMES.checkoutLinkLifetimeMs));
    const stored = await repo.findById(session.scope, session.id);
    expect(stored?.checkoutLinks.map((l) => l.token)).toEqual([session.checkoutLinks[0]!.token, link.token]);
    expect((await repo.findByCheckoutToken(session.checkoutLinks[0]!.token))?.id).toBe(session.id);
    expect((await repo.findByCheckoutToken(link.token))?.id).toBe(session.id);
  });

  it("when five links are unexpired, then a sixth is CHECKOUT_LIMIT_EXCEEDED, and once some expire new ones are allowed again", async () => {
    const { clock, checkoutDeps, newSession } = setup();
    const session = await newSession(); // its first link counts
    for (let i = 0; i < 4; i++) {
      clock.advance(MINUTE);
      await createCheckout(checkoutDeps, session.scope, session.id);
    }
    const err = await createCheckout(checkoutDeps, session.scope, session.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).reason).toBe("CHECKOUT_LIMIT_EXCEEDED");
    expect((err as GatewayError).metadata).toEqual({ session_id: session.id, limit: "5" });

    // The first link (created at 0) expires at 30 min, the second (at 1 min) at 31 min.
    clock.set(session.createdAt.getTime() + LIFETIMES.checkoutLinkLifetimeMs);
    await createCheckout(checkoutDeps, session.scope, session.id);
    expect(await reasonOf(createCheckout(checkoutDeps, session.scope, session.id))).toBe(
      "CHECKOUT_LIMIT_EXCEEDED",
    );
    clock.advance(MINUTE);
    await createCheckout(checkoutDeps, session.scope, session.id);
  });

  it("when the session ends soon, then the link ends with it", async () => {
    const { clock, checkoutDeps, newSession } = setup();
    const session = await newSession();
    clock.set(session.expiresAt.getTime() - 5 * MINUTE);
    const link = await createCheckout(checkoutDeps, session.scope, session.id);
    expect(link.expiresAt).toEqual(session.expiresAt);
  });

  it.each(["SUCCEEDED", "FAILED", "EXPIRED", "CANCELED"] as const)(
    "when the session is %s, then it is SESSION_TERMINAL",
    async (status) => {
      const { repo, checkoutDeps, newSession } = setup();
      const session = await force(repo, await newSession(), { status });
      expect(await reasonOf(createCheckout(checkoutDeps, session.scope, session.id))).toBe(
        "SESSION_TERMINAL",
      );
    },
  );

  it("when the session's lifetime is over, then it is SESSION_TERMINAL even before expiry is recorded", async () => {
    const { clock, checkoutDeps, newSession } = setup();
    const session = await newSession();
    clock.set(session.expiresAt);
    expect(await reasonOf(createCheckout(checkoutDeps, session.scope, session.id))).toBe("SESSION_TERMINAL");
  });

  it("when another merchant or the other mode asks, then it is NOT_FOUND", async () => {
    const { checkoutDeps, newSession } = setup();
    const session = await newSession();
    expect(await reasonOf(createCheckout(checkoutDeps, newScope(), session.id))).toBe("NOT_FOUND");
    expect(
      await reasonOf(createCheckout(checkoutDeps, { ...session.scope, livemode: true }, session.id)),
    ).toBe("NOT_FOUND");
  });
});

describe("getCheckout", () => {
  it("when the token is unknown, then there is no checkout", async () => {
    const { viewDeps } = setup();
    expect(await getCheckout(viewDeps, "no-such-token")).toBeUndefined();
    expect(await getCheckout(viewDeps, "")).toBeUndefined();
  });

  it("when a fresh session is opened, then it is payable with every attempt left and the merchant's name", async () => {
    const { viewDeps, newSession } = setup();
    const session = await newSession({ maxAttempts: 4 });
    const view = await getCheckout(viewDeps, session.checkoutLinks[0]!.token);
    expect(view).toMatchObject({ merchantName: "Café Sidi Bou", state: "PAYABLE", attemptsLeft: 4 });
    expect(view?.session.id).toBe(session.id);
    expect(view?.lastFailureCode).toBeUndefined();
  });

  it.each([
    ["PENDING", "PAYABLE"],
    ["PROCESSING", "PROCESSING"],
    ["SUCCEEDED", "SUCCEEDED"],
    ["FAILED", "FAILED"],
    ["EXPIRED", "CLOSED"],
    ["CANCELED", "CLOSED"],
  ] as const)("when the session is %s, then the page state is %s", async (status, state) => {
    const { repo, viewDeps, newSession } = setup();
    const session = await force(repo, await newSession(), { status });
    expect((await getCheckout(viewDeps, session.checkoutLinks[0]!.token))?.state).toBe(state);
  });

  it("when the link has expired, then it is LINK_EXPIRED though the session is payable, and starting a payment through it is refused", async () => {
    const { clock, viewDeps, paymentDeps, checkoutDeps, newSession } = setup();
    const session = await newSession();
    const token = session.checkoutLinks[0]!.token;
    clock.advance(LIFETIMES.checkoutLinkLifetimeMs);
    expect((await getCheckout(viewDeps, token))?.state).toBe("LINK_EXPIRED");
    const err = await startPayment(paymentDeps, token, "en").catch((e: unknown) => e);
    expect((err as GatewayError).reason).toBe("INVALID_STATE");
    expect((err as GatewayError).metadata.checkout_state).toBe("LINK_EXPIRED");
    // A fresh link works.
    const fresh = await createCheckout(checkoutDeps, session.scope, session.id);
    expect((await getCheckout(viewDeps, fresh.token))?.state).toBe("PAYABLE");
  });

  it("when the session's lifetime is over, then the page is CLOSED and a payment is SESSION_TERMINAL", async () => {
    const { clock, viewDeps, paymentDeps, newSession } = setup();
    const session = await newSession();
    clock.set(session.expiresAt);
    expect((await getCheckout(viewDeps, session.checkoutLinks[0]!.token))?.state).toBe("CLOSED");
    expect(await reasonOf(startPayment(paymentDeps, session.checkoutLinks[0]!.token, "en"))).toBe(
      "SESSION_TERMINAL",
    );
  });

  it("when the session succeeded, then the buyer sees it even through an expired link", async () => {
    const { repo, clock, viewDeps, newSession } = setup();
    const session = await force(repo, await newSession(), { status: "SUCCEEDED" });
    clock.advance(LIFETIMES.checkoutLinkLifetimeMs * 2);
    expect((await getCheckout(viewDeps, session.checkoutLinks[0]!.token))?.state).toBe("SUCCEEDED");
  });

  it("when the last attempt was declined, then its failure code is shown and one try fewer is left", async () => {
    const { repo, viewDeps, newSession } = setup();
    const created = await newSession({ maxAttempts: 3 });
    const token = created.checkoutLinks[0]!.token;
    await force(repo, created, {
      status: "PENDING",
      attempts: [
        attempt("ABANDONED", 1, token, "session_timeout"),
        attempt("FAILED", 2, token, "insufficient_funds"),
      ],
    });
    expect(await getCheckout(viewDeps, token)).toMatchObject({
      state: "PAYABLE",
      lastFailureCode: "insufficient_funds",
      attemptsLeft: 2,
    });
  });

  it("when the attempts are exhausted, then the page is FAILED with the last failure and nothing left", async () => {
    const { repo, viewDeps, newSession } = setup();
    const created = await newSession({ maxAttempts: 1 });
    const token = created.checkoutLinks[0]!.token;
    await force(repo, created, { status: "FAILED", attempts: [attempt("FAILED", 1, token, "expired_card")] });
    expect(await getCheckout(viewDeps, token)).toMatchObject({
      state: "FAILED",
      lastFailureCode: "expired_card",
      attemptsLeft: 0,
    });
  });
});
