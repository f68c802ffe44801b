import { fromBinary } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type Client, Code, ConnectError, createClient } from "@connectrpc/connect";
import { createEpgAcquirer, simulatorTerminalBaseUrl } from "@gateway/acquirer";
import { createEpgSimulator, type ListeningSimulator } from "@gateway/epg-simulator";
import {
  createInProcessTransport,
  createLogger,
  InMemoryEventBus,
  ManualClock,
  type ReceivedEvent,
  readErrorDetail,
} from "@gateway/platform";
import {
  AttemptStatus,
  CheckoutState,
  SessionEventSchema,
  SessionService,
  SessionStatus,
  SettlementSource,
} from "@gateway/proto";
import { waitFor } from "@gateway/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemorySessionRepository } from "../../src/adapters/memory/in-memory-session-repository.js";
import { InMemorySweepLocks } from "../../src/adapters/memory/in-memory-sweep-locks.js";
import { createSessionsModule, type SessionsModule } from "../../src/sessions-module.js";
import { payOnCardPage } from "../support/card-page.js";
import { fakeRates, newScope, SETTINGS } from "../support/fixtures.js";
import { fakeFees, fakeMerchants, fakeTerminals } from "../support/payment-fakes.js";

// The checkout RPCs over Connect, wired as embedded mode wires them: the sessions module with
// its outbox relay on the in-memory event bus, the EPG simulator as the merchants' acquirer.

let simulator: ListeningSimulator;
let stopSimulator: () => void;
let bus: InMemoryEventBus;
let sessions: SessionsModule;
let client: Client<typeof SessionService>;
const clock = new ManualClock(Date.now());
const received: ReceivedEvent[] = [];

beforeAll(async () => {
  const sim = createEpgSimulator();
  simulator = await sim.listen(0);
  stopSimulator = () => sim.stop();
  bus = new InMemoryEventBus();
  await bus.subscribe({
    durable: "webhooks-stand-in",
    subjects: ["gateway.events.>"],
    handler: async (e) => {
      received.push(e);
      return "ack";
    },
  });
  const logger = createLogger({ service: "sessions-test", level: "silent" });
  sessions = createSessionsModule({
    repo: createMemorySessionRepository(),
    rates: fakeRates({}),
    clock,
    logger,
    config: { ...SETTINGS, checkoutLinkLimit: 2, acquirerTimeoutMs: 5_000 },
    acquirer: createEpgAcquirer({ timeoutMs: 5_000 }),
    terminals: fakeTerminals({
      baseUrl: simulatorTerminalBaseUrl(simulator.url),
      username: "sim-merchant",
      password: "sim-password",
    }),
    fees: fakeFees({}, { percent: "2", fixedMinor: 0n }),
    merchants: fakeMerchants({}, "Dar El Jeld"),
    eventBus: bus,
    outboxPollIntervalMs: 60_000, // only a wake gets events out quickly in this test
    sweepLocks: new InMemorySweepLocks(),
  });
  sessions.relay.start();
  client = createClient(
    SessionService,
    createInProcessTransport({ name: "sessions", routes: sessions.routes, logger }),
  );
});

afterAll(async () => {
  await sessions.relay.stop();
  await bus.close();
  await simulator.close();
  stopSimulator();
});

async function rpcError(promise: Promise<unknown>): Promise<ConnectError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ConnectError) return err;
    throw err;
  }
  throw new Error("expected a ConnectError");
}

const tokenOf = (checkoutUrl: string) => checkoutUrl.split("/").at(-1)!;

describe("the checkout RPCs", () => {
  it("when a buyer pays, then the page, the payment and the settlement map to the wire and session.succeeded is published", async () => {
    const scope = newScope();
    const { session } = await client.createSession({
      scope,
      merchantReference: "rpc-pay",
      amount: "50.000",
      returnUrl: "https://shop.example.tn/ok",
    });
    const token = tokenOf(session!.checkoutUrl);

    const page = await client.getCheckout({ token });
    expect(page).toMatchObject({
      merchantName: "Dar El Jeld",
      state: CheckoutState.PAYABLE,
      lastFailureCode: "",
      attemptsLeft: 3,
    });
    expect(page.session?.id).toBe(session!.id);

    const started = await client.startPayment({ token, language: "ar" });
    expect((await client.getCheckout({ token })).state).toBe(CheckoutState.PROCESSING);
    const { orderId } = await payOnCardPage(started.redirectUrl, { number: "4000000000000069" });
    const declined = await client.settleAttempt({
      acquirerOrderId: orderId,
      source: SettlementSource.RETURN,
    });
    // A decline names the card that failed (brand, last four), never its number; no fee is taken.
    expect(declined.attempt).toMatchObject({
      status: AttemptStatus.FAILED,
      failureCode: "expired_card",
      cardBrand: "visa",
      cardLastFour: "0069",
      feeAmount: "",
      netAmount: "",
    });
    expect(await client.getCheckout({ token })).toMatchObject({
      state: CheckoutState.PAYABLE,
      lastFailureCode: "expired_card",
      attemptsLeft: 2,
    });

    const retry = await client.startPayment({ token, language: "en" });
    const paid = await payOnCardPage(retry.redirectUrl, { number: "4242424242424242" });
    const settled = await client.settleAttempt({
      acquirerOrderId: paid.orderId,
      source: SettlementSource.CALLBACK,
    });
    expect(settled.redirectUrl).toBe("https://shop.example.tn/ok");
    expect(settled.session?.status).toBe(SessionStatus.SUCCEEDED);
    expect(settled.attempt).toMatchObject({
      attemptNumber: 2,
      status: AttemptStatus.SUCCEEDED,
      cardBrand: "visa",
      cardLastFour: "4242",
      feeAmount: "1.000",
      netAmount: "49.000",
    });
    const stored = (await client.getSession({ scope, sessionId: session!.id })).session!;
    expect(stored.attempts.map((a) => [a.attemptNumber, a.status])).toEqual([
      [1, AttemptStatus.FAILED],
      [2, AttemptStatus.SUCCEEDED],
    ]);
    expect(stored.checkoutUrl).toBe("");
    expect(timestampDate(stored.completedAt!)).toEqual(clock.now());

    const events = await waitFor(
      () => {
        const mine = received
          .map((e) => ({ e, decoded: fromBinary(SessionEventSchema, e.data) }))
          .filter((x) => x.decoded.session?.id === session!.id);
        return mine.length === 2 ? mine : undefined;
      },
      { timeoutMs: 15_000, message: "both events to be published" },
    );
    expect(events.map((x) => [x.e.subject, x.decoded.sequence])).toEqual([
      ["gateway.events.session.failed", 1n],
      ["gateway.events.session.succeeded", 2n],
    ]);
    expect(events.map((x) => x.e.id)).toEqual(events.map((x) => x.decoded.eventId));
  });

  it("when a merchant asks for more links than allowed, then it is ResourceExhausted with CHECKOUT_LIMIT_EXCEEDED", async () => {
    const scope = newScope();
    const { session } = await client.createSession({
      scope,
      merchantReference: "rpc-links",
      amount: "5.000",
    });
    const link = await client.createCheckout({ scope, sessionId: session!.id });
    expect(link.checkoutUrl).toMatch(new RegExp(`^${SETTINGS.publicBaseUrl}/checkout/[0-9A-Za-z]{32}$`));
    expect(timestampDate(link.expiresAt!).getTime()).toBe(
      clock.now().getTime() + SETTINGS.checkoutLinkLifetimeMs,
    );
    expect((await client.getSession({ scope, sessionId: session!.id })).session?.checkoutUrl).toBe(
      link.checkoutUrl,
    );
    const err = await rpcError(client.createCheckout({ scope, sessionId: session!.id }));
    expect(err.code).toBe(Code.ResourceExhausted);
    expect(readErrorDetail(err)?.reason).toBe("CHECKOUT_LIMIT_EXCEEDED");
  });

  it("when the token is unknown, then GetCheckout answers without a session", async () => {
    const res = await client.getCheckout({ token: "unknown" });
    expect(res.session).toBeUndefined();
    expect(res.state).toBe(CheckoutState.UNSPECIFIED);
  });

  it("when a settlement does not say who asks, then it is InvalidArgument", async () => {
    const err = await rpcError(client.settleAttempt({ acquirerOrderId: "x" }));
    expect(err.code).toBe(Code.InvalidArgument);
    expect(readErrorDetail(err)?.fieldViolations.map((v) => v.field)).toEqual(["source"]);
  });

  it("when a payment starts on a finished session, then it is FailedPrecondition with SESSION_TERMINAL", async () => {
    const scope = newScope();
    const { session } = await client.createSession({
      scope,
      merchantReference: "rpc-closed",
      amount: "5.000",
    });
    await client.cancelSession({ scope, sessionId: session!.id });
    const err = await rpcError(client.startPayment({ token: tokenOf(session!.checkoutUrl), language: "en" }));
    expect(err.code).toBe(Code.FailedPrecondition);
    expect(readErrorDetail(err)?.reason).toBe("SESSION_TERMINAL");
    expect((await client.getCheckout({ token: tokenOf(session!.checkoutUrl) })).state).toBe(
      CheckoutState.CLOSED,
    );
  });
});
