import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createInProcessTransport, createLogger, ManualClock, readErrorDetail } from "@gateway/platform";
import { SessionService, SessionStatus } from "@gateway/proto";
import { describe, expect, it } from "vitest";
import { createMemorySessionRepository } from "../../src/adapters/memory/in-memory-session-repository.js";
import type { TerminalProvider } from "../../src/app/ports.js";
import { createSessionsRoutes } from "../../src/sessions-module.js";
import { ACTIVE_TERMINALS, fakeRates, newScope, SETTINGS } from "../support/fixtures.js";
import { fakeFees, fakeMerchants, fakeTerminals, unreachableAcquirer } from "../support/payment-fakes.js";

function setup(terminals: TerminalProvider = ACTIVE_TERMINALS) {
  const repo = createMemorySessionRepository();
  const clock = new ManualClock(Date.UTC(2026, 4, 1, 10));
  const routes = createSessionsRoutes({
    repo,
    rates: fakeRates({ EUR: "3.400000" }),
    clock,
    logger: createLogger({ service: "sessions-test", level: "silent" }),
    config: SETTINGS,
    acquirer: unreachableAcquirer,
    terminals,
    fees: fakeFees(),
    merchants: fakeMerchants(),
  });
  return {
    client: createClient(
      SessionService,
      createInProcessTransport({
        name: "sessions",
        routes,
        logger: createLogger({ service: "sessions", level: "silent" }),
      }),
    ),
    clock,
    repo,
  };
}

async function rpcError(promise: Promise<unknown>): Promise<ConnectError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ConnectError) return err;
    throw err;
  }
  throw new Error("expected a ConnectError");
}

describe("SessionService over Connect", () => {
  it("when a merchant creates again within two and a half seconds, then accounts is not asked about the terminal again", async () => {
    const terminals = fakeTerminals({ baseUrl: "http://127.0.0.1:9/epg/rest", username: "u", password: "p" });
    const { client, clock } = setup(terminals);
    const scope = newScope();
    const create = (merchantReference: string) =>
      client.createSession({ scope, merchantReference, amount: "10.000", currency: "TND", maxAttempts: 1 });
    await create("r-1");
    clock.advance(2_000);
    await create("r-2");
    expect(terminals.lookups).toHaveLength(1);
    clock.advance(3_000);
    terminals.set(scope.merchantId, "TERMINAL_INACTIVE");
    const err = await rpcError(create("r-3"));
    expect(readErrorDetail(err)?.reason).toBe("TERMINAL_INACTIVE");
    expect(terminals.lookups).toHaveLength(2);
  });

  it("when a create fails validation, then it is InvalidArgument with VALIDATION_ERROR and every field violation", async () => {
    const { client } = setup();
    const err = await rpcError(
      client.createSession({
        scope: newScope(),
        merchantReference: "",
        amount: "10.5",
        currency: "EUR",
        buyerEmail: "",
        maxAttempts: 0,
        items: [{ name: "Mug", quantity: 0, unitPrice: "1.00" }],
      }),
    );
    expect(err.code).toBe(Code.InvalidArgument);
    const detail = readErrorDetail(err);
    expect(detail?.reason).toBe("VALIDATION_ERROR");
    expect(detail?.domain).toBe("sessions.gateway");
    expect(detail?.fieldViolations.map((v) => [v.field, v.code])).toEqual([
      ["merchant_reference", "required"],
      ["amount", "invalid_precision"],
      ["items[0].quantity", "invalid"],
      ["buyer_email", "invalid"],
      ["max_attempts", "invalid"],
    ]);
    for (const v of detail?.fieldViolations ?? []) expect(v.message).not.toBe("");
  });

  it("when a EUR session is created, then the wire form carries TND, the original, the link and the timestamps", async () => {
    const { client, clock } = setup();
    const scope = newScope();
    const res = await client.createSession({
      scope,
      merchantReference: "order-77",
      amount: "10.00",
      currency: "EUR",
      orderId: "77",
      items: [{ name: "Mug", quantity: 2, unitPrice: "5.00" }],
      metadataJson: '{"cart":[1,2],"x.y":"z"}',
    });
    expect(res.created).toBe(true);
    const s = res.session!;
    expect(s.id).toMatch(/^ps_/);
    expect(s.scope).toMatchObject({ merchantId: scope.merchantId, livemode: false });
    expect(s.orderNumber).toMatch(/^PG-[2-9A-HJ-NP-Z]{6}$/);
    expect([s.amount, s.currency]).toEqual(["34.000", "TND"]);
    expect(s.original).toMatchObject({ amount: "10.00", currency: "EUR", rate: "3.400000" });
    expect(s.items.map((i) => [i.name, i.quantity, i.unitPrice, i.description])).toEqual([
      ["Mug", 2, "5.00", ""],
    ]);
    expect(s.status).toBe(SessionStatus.CREATED);
    expect(s.metadataJson).toBe('{"cart":[1,2],"x.y":"z"}');
    expect(s.maxAttempts).toBe(3);
    expect(s.checkoutUrl).toMatch(/^https:\/\/pay\.example\.test\/checkout\/[0-9A-Za-z]{32}$/);
    expect(timestampDate(s.createdAt!)).toEqual(clock.now());
    expect(timestampDate(s.expiresAt!).getTime()).toBe(clock.now().getTime() + SETTINGS.sessionLifetimeMs);
    expect(timestampDate(s.checkoutExpiresAt!).getTime()).toBe(
      clock.now().getTime() + SETTINGS.checkoutLinkLifetimeMs,
    );
    expect(s.completedAt).toBeUndefined();
    expect(s.attempts).toEqual([]);

    const again = await client.createSession({
      scope,
      merchantReference: "order-77",
      amount: "10.00",
      currency: "EUR",
      orderId: "77",
      items: [{ name: "Mug", quantity: 2, unitPrice: "5.00" }],
      metadataJson: '{"cart":[1,2],"x.y":"z"}',
    });
    expect(again.created).toBe(false);
    expect(again.session).toEqual(s);
  });

  it("when the reference repeats with other parameters, then it is AlreadyExists with CONFLICT and the existing id", async () => {
    const { client } = setup();
    const scope = newScope();
    const first = await client.createSession({ scope, merchantReference: "dup", amount: "1.000" });
    const err = await rpcError(client.createSession({ scope, merchantReference: "dup", amount: "2.000" }));
    expect(err.code).toBe(Code.AlreadyExists);
    expect(readErrorDetail(err)?.reason).toBe("CONFLICT");
    expect(readErrorDetail(err)?.metadata).toEqual({ existing_session_id: first.session!.id });
  });

  it("when another merchant asks for a session, then it is NotFound", async () => {
    const { client } = setup();
    const { session } = await client.createSession({
      scope: newScope(),
      merchantReference: "mine",
      amount: "1.000",
    });
    const err = await rpcError(client.getSession({ scope: newScope(), sessionId: session!.id }));
    expect(err.code).toBe(Code.NotFound);
    expect(readErrorDetail(err)?.reason).toBe("NOT_FOUND");
  });

  it("when a session is canceled, then it comes back CANCELED with completed_at and without a checkout link", async () => {
    const { client, clock } = setup();
    const scope = newScope();
    const { session } = await client.createSession({ scope, merchantReference: "c-1", amount: "1.000" });
    clock.advance(1000);
    const { session: canceled } = await client.cancelSession({ scope, sessionId: session!.id });
    expect(canceled!.status).toBe(SessionStatus.CANCELED);
    expect(timestampDate(canceled!.completedAt!)).toEqual(clock.now());
    expect(canceled!.checkoutUrl).toBe("");
    expect(canceled!.checkoutExpiresAt).toBeUndefined();
    expect((await client.getSession({ scope, sessionId: session!.id })).session).toEqual(canceled);
  });

  it("when a terminal session is canceled, then it is FailedPrecondition with SESSION_TERMINAL", async () => {
    const { client, repo } = setup();
    const scope = newScope();
    const { session } = await client.createSession({ scope, merchantReference: "t-1", amount: "1.000" });
    await repo.updateIf((await repo.findById(scope, session!.id))!, { status: "EXPIRED" });
    const err = await rpcError(client.cancelSession({ scope, sessionId: session!.id }));
    expect(err.code).toBe(Code.FailedPrecondition);
    expect(readErrorDetail(err)?.reason).toBe("SESSION_TERMINAL");
  });

  it("when sessions are listed with filters and a page size, then the page and its cursor come back", async () => {
    const { client, clock } = setup();
    const scope = newScope();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(
        (await client.createSession({ scope, merchantReference: `l-${i}`, amount: "1.000" })).session!.id,
      );
      clock.advance(1000);
    }
    await client.cancelSession({ scope, sessionId: ids[0]! });
    const first = await client.listSessions({ scope, page: { limit: 1 } });
    expect(first.sessions.map((s) => s.id)).toEqual([ids[2]]);
    expect(first.pageInfo).toMatchObject({ hasMore: true, nextCursor: ids[2] });
    const rest = await client.listSessions({ scope, page: { limit: 5, startingAfter: ids[2]! } });
    expect(rest.sessions.map((s) => s.id)).toEqual([ids[1], ids[0]]);
    expect(rest.pageInfo).toMatchObject({ hasMore: false, nextCursor: "" });
    const canceled = await client.listSessions({ scope, status: SessionStatus.CANCELED });
    expect(canceled.sessions.map((s) => s.id)).toEqual([ids[0]]);
    const byRef = await client.listSessions({ scope, merchantReference: "l-1" });
    expect(byRef.sessions.map((s) => s.id)).toEqual([ids[1]]);
    const start = Date.UTC(2026, 4, 1, 10);
    const window = await client.listSessions({
      scope,
      createdGte: timestampFromDate(new Date(start + 1000)),
      createdLte: timestampFromDate(new Date(start + 2000)),
    });
    expect(window.sessions.map((s) => s.id)).toEqual([ids[2], ids[1]]);
  });

  it("when sessions are listed by order number or exact amount, then only the matching ones come back", async () => {
    const { client } = setup();
    const scope = newScope();
    const small = (await client.createSession({ scope, merchantReference: "o-1", amount: "12.500" }))
      .session!;
    const large = (await client.createSession({ scope, merchantReference: "o-2", amount: "99.000" }))
      .session!;
    const byOrder = await client.listSessions({ scope, orderNumber: large.orderNumber });
    expect(byOrder.sessions.map((s) => s.id)).toEqual([large.id]);
    const byAmount = await client.listSessions({ scope, amount: "12.500" });
    expect(byAmount.sessions.map((s) => s.id)).toEqual([small.id]);
    expect((await client.listSessions({ scope, amount: "12.501" })).sessions).toEqual([]);
  });

  it("when the amount filter is not an exact TND amount, then it is InvalidArgument on amount", async () => {
    const { client } = setup();
    for (const amount of ["12.5", "1e3", "-1.000", "12,500"]) {
      const err = await rpcError(client.listSessions({ scope: newScope(), amount }));
      expect(err.code).toBe(Code.InvalidArgument);
      expect(readErrorDetail(err)?.fieldViolations.map((v) => v.field)).toEqual(["amount"]);
    }
  });

  it("when a list page size is out of range, then it is InvalidArgument on limit", async () => {
    const { client } = setup();
    const err = await rpcError(client.listSessions({ scope: newScope(), page: { limit: 101 } }));
    expect(err.code).toBe(Code.InvalidArgument);
    expect(readErrorDetail(err)?.fieldViolations.map((v) => v.field)).toEqual(["limit"]);
  });

  it("when a call carries no account scope, then it is Unauthenticated", async () => {
    const { client } = setup();
    const err = await rpcError(client.getSession({ sessionId: "ps_x" }));
    expect(err.code).toBe(Code.Unauthenticated);
    expect(readErrorDetail(err)?.reason).toBe("UNAUTHORIZED");
  });
});
