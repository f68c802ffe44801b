import { GatewayError, ManualClock, newId, randomBase62 } from "@gateway/platform";
import { beforeAll, describe, expect, it } from "vitest";
import { cancelSession } from "../../src/app/cancel-session.js";
import { type CreateSessionDeps, createSession } from "../../src/app/create-session.js";
import { getSession } from "../../src/app/get-session.js";
import { listSessions } from "../../src/app/list-sessions.js";
import { type OutboxEvent, PUBLISHED_OUTBOX_KEPT, type SessionRepository } from "../../src/app/ports.js";
import { newAttempt } from "../../src/domain/attempts.js";
import type { PaymentAttempt, Session, SessionStatus } from "../../src/domain/session.js";
import {
  ACTIVE_TERMINALS,
  createInput,
  fakeRates,
  LIFETIMES,
  newScope,
  sessionFixture,
} from "../support/fixtures.js";
import { offlinePaymentDeps } from "../support/payment-fakes.js";

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof GatewayError) return err.reason;
    throw err;
  }
  throw new Error("expected a GatewayError");
}

function outboxEvent(sequence: number, type: OutboxEvent["type"] = "session.failed"): OutboxEvent {
  return {
    eventId: newId("evt"),
    type,
    sequence,
    occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, sequence)),
    // Every byte value, so no encoding along the way can alter the payload unnoticed.
    payload: Uint8Array.from({ length: 300 }, (_, i) => (i * 7 + sequence) % 256),
    headers: { traceparent: `00-${"a".repeat(31)}${sequence % 10}-${"b".repeat(16)}-01` },
  };
}

/** What an adapter really stores in a session's outbox, published or not (retention checks). */
export type StoredOutbox = (sessionId: string) => Promise<Array<{ eventId: string; published: boolean }>>;

/**
 * The one contract every SessionRepository adapter meets, run against the in-memory store and
 * MongoDB/FerretDB. `open` is called once per suite; tests isolate themselves by merchant.
 */
export function sessionRepositoryContract(
  adapter: string,
  open: () => Promise<SessionRepository>,
  storedOutbox: StoredOutbox,
): void {
  describe(`SessionRepository contract: ${adapter}`, () => {
    let repo: SessionRepository;
    beforeAll(async () => {
      repo = await open();
    });

    const deps = (clock = new ManualClock()): CreateSessionDeps => ({
      repo,
      rates: fakeRates({ EUR: "3.400000" }),
      terminals: ACTIVE_TERMINALS,
      clock,
      lifetimes: LIFETIMES,
    });

    describe("storing and reading", () => {
      it("when a session is inserted, then it reads back field for field, amounts exact as bigint", async () => {
        const scope = newScope();
        const session: Session = {
          ...sessionFixture(scope, {
            amount: "10.00",
            currency: "EUR",
            orderId: "A-42",
            description: "Two mugs\nand a spoon",
            items: [
              { name: "Mug", quantity: 2, unitPrice: "4.50", description: "Blue" },
              { name: "Spoon", quantity: 1, unitPrice: "1.00" },
            ],
            buyerFirstName: "Émile",
            buyerLastName: "بن علي",
            buyerEmail: "emile@example.tn",
            buyerPhone: "+216 71 000 000",
            metadataJson: '{"a.b":{"$c":[[1,2],[3]]},"n":1.50,"é":"😀"}',
            returnUrl: "https://shop.example.tn/r",
            cancelUrl: "https://shop.example.tn/c",
            webhookUrl: "https://shop.example.tn/w",
            maxAttempts: 5,
          }),
        };
        // Beyond 2^53: a JS number would silently round this.
        session.original = { ...session.original, amountMinor: 9_007_199_254_740_993n };
        expect(await repo.insert(session)).toEqual({ inserted: true });
        const read = await repo.findById(scope, session.id);
        expect(read).toEqual(session);
        expect(typeof read!.amountMinor).toBe("bigint");
        expect(read!.original.amountMinor).toBe(9_007_199_254_740_993n);
        expect(read!.metadataJson).toBe('{"a.b":{"$c":[[1,2],[3]]},"n":1.50,"é":"😀"}');
      });

      it("when optional fields are absent, then they stay absent", async () => {
        const scope = newScope();
        const session = sessionFixture(scope);
        await repo.insert(session);
        const read = await repo.findById(scope, session.id);
        expect(read).toEqual(session);
        for (const key of [
          "orderId",
          "description",
          "metadataJson",
          "returnUrl",
          "cancelUrl",
          "webhookUrl",
          "completedAt",
        ]) {
          expect(read).not.toHaveProperty(key);
        }
        expect(read!.buyer).toEqual({});
      });

      it("when a session is looked up by reference, then it is found in its own scope only", async () => {
        const scope = newScope();
        const session = sessionFixture(scope);
        await repo.insert(session);
        expect((await repo.findByReference(scope, session.merchantReference))?.id).toBe(session.id);
        expect(
          await repo.findByReference({ ...scope, livemode: true }, session.merchantReference),
        ).toBeUndefined();
        expect(await repo.findByReference(newScope(), session.merchantReference)).toBeUndefined();
        expect(await repo.findByReference(scope, "no-such-reference")).toBeUndefined();
      });

      it("when another merchant or the other mode asks for a session by id, then it is not there", async () => {
        const scope = newScope();
        const session = sessionFixture(scope);
        await repo.insert(session);
        expect(
          await repo.findById({ merchantId: `mer_${randomBase62(16)}`, livemode: false }, session.id),
        ).toBeUndefined();
        expect(await repo.findById({ ...scope, livemode: true }, session.id)).toBeUndefined();
        expect(await repo.findById(scope, "ps_doesnotexist")).toBeUndefined();
      });
    });

    describe("uniqueness", () => {
      it("when a reference is inserted twice, then the second insert gets the first session back", async () => {
        const scope = newScope();
        const first = sessionFixture(scope, { merchantReference: "same-ref" });
        const second = sessionFixture(scope, { merchantReference: "same-ref", amount: "1.000" });
        await repo.insert(first);
        const result = await repo.insert(second);
        expect(result).toMatchObject({ inserted: false, duplicate: "merchant_reference" });
        expect(
          result.inserted === false && result.duplicate === "merchant_reference" && result.existing.id,
        ).toBe(first.id);
        expect(await repo.findById(scope, second.id)).toBeUndefined();
      });

      it("when the same reference is used by another merchant or in the other mode, then each gets its own session", async () => {
        const scope = newScope();
        const a = sessionFixture(scope, { merchantReference: "shared" });
        const b = sessionFixture({ ...scope, livemode: true }, { merchantReference: "shared" });
        const c = sessionFixture(newScope(), { merchantReference: "shared" });
        for (const s of [a, b, c]) expect(await repo.insert(s)).toEqual({ inserted: true });
      });

      it.each([
        ["order number", (s: Session, taken: Session) => ({ ...s, orderNumber: taken.orderNumber })],
        ["id", (s: Session, taken: Session) => ({ ...s, id: taken.id })],
      ])(
        "when a generated %s collides, then the insert reports it and stores nothing",
        async (_what, collide) => {
          const scope = newScope();
          const taken = sessionFixture(scope);
          await repo.insert(taken);
          const clash = collide(sessionFixture(scope), taken);
          expect(await repo.insert(clash)).toEqual({ inserted: false, duplicate: "generated_value" });
          expect(await repo.findByReference(scope, clash.merchantReference)).toBeUndefined();
        },
      );
    });

    describe("conditional updates", () => {
      it("when the version matches, then the change is stored and the version bumped", async () => {
        const scope = newScope();
        const session = sessionFixture(scope);
        await repo.insert(session);
        const at = new Date(Date.UTC(2026, 0, 2));
        const result = await repo.updateIf(session, {
          status: "CANCELED",
          completedAt: at,
          updatedAt: at,
        });
        expect(result.updated).toBe(true);
        const stored = await repo.findById(scope, session.id);
        expect(stored).toEqual({
          ...session,
          status: "CANCELED",
          completedAt: at,
          updatedAt: at,
          version: 2,
        });
        expect(result.updated && result.session).toEqual(stored);
      });

      it("when the version is stale, then nothing changes and the current session is returned", async () => {
        const scope = newScope();
        const session = sessionFixture(scope);
        await repo.insert(session);
        await repo.updateIf(session, { status: "PENDING" });
        const result = await repo.updateIf(session, { status: "CANCELED" });
        expect(result.updated).toBe(false);
        expect(!result.updated && result.current).toMatchObject({ status: "PENDING", version: 2 });
      });

      it("when another scope tries to change a session, then it is not found and unchanged", async () => {
        const scope = newScope();
        const session = sessionFixture(scope);
        await repo.insert(session);
        expect(
          await repo.updateIf({ ...session, scope: { ...scope, livemode: true } }, { status: "CANCELED" }),
        ).toEqual({ updated: false, current: undefined });
        expect(await repo.updateIf({ ...session, scope: newScope() }, { status: "CANCELED" })).toEqual({
          updated: false,
          current: undefined,
        });
        expect((await repo.findById(scope, session.id))?.status).toBe("CREATED");
      });

      it("when 20 compare-and-sets race on one version, then exactly one wins and the others see its change", async () => {
        const scope = newScope();
        const session = sessionFixture(scope);
        await repo.insert(session);
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            repo.updateIf(session, { updatedAt: new Date(Date.UTC(2026, 0, 2, 0, 0, i)) }),
          ),
        );
        const winners = results.filter((r) => r.updated);
        expect(winners).toHaveLength(1);
        const stored = await repo.findById(scope, session.id);
        expect(stored?.version).toBe(2);
        expect(winners[0]!.updated && winners[0]!.session).toEqual(stored);
        for (const r of results) if (!r.updated) expect(r.current?.version).toBe(2);
      });

      it("when a checkout link is appended, then both links are kept in order", async () => {
        const scope = newScope();
        const session = sessionFixture(scope);
        await repo.insert(session);
        const extra = {
          token: randomBase62(32),
          createdAt: new Date(Date.UTC(2026, 0, 1, 1)),
          expiresAt: new Date(Date.UTC(2026, 0, 1, 2)),
        };
        await repo.updateIf(session, { checkoutLinks: [...session.checkoutLinks, extra] });
        expect((await repo.findById(scope, session.id))?.checkoutLinks).toEqual([
          ...session.checkoutLinks,
          extra,
        ]);
      });
    });

    describe("listing", () => {
      async function seed(
        scope: ReturnType<typeof newScope>,
        count: number,
        at: (i: number) => Date,
      ): Promise<Session[]> {
        const sessions = Array.from({ length: count }, (_, i) =>
          sessionFixture(scope, { merchantReference: `ref-${i}` }, at(i)),
        );
        for (const s of sessions) await repo.insert(s);
        return sessions;
      }

      it("when sessions exist, then they are listed newest first with the id breaking ties", async () => {
        const scope = newScope();
        const sessions = await seed(scope, 6, (i) => new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 2))));
        const page = await repo.list(scope, {}, { limit: 10 });
        const expected = [...sessions].sort(
          (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1),
        );
        expect(page.sessions.map((s) => s.id)).toEqual(expected.map((s) => s.id));
        expect(page.hasMore).toBe(false);
      });

      it("when a page is full, then has_more says so and the next page starts after the position", async () => {
        const scope = newScope();
        await seed(scope, 5, (i) => new Date(Date.UTC(2026, 0, 1, 0, i)));
        const first = await repo.list(scope, {}, { limit: 2 });
        expect(first.sessions.map((s) => s.merchantReference)).toEqual(["ref-4", "ref-3"]);
        expect(first.hasMore).toBe(true);
        const last = first.sessions.at(-1)!;
        const second = await repo.list(
          scope,
          {},
          { limit: 3, after: { createdAt: last.createdAt, id: last.id } },
        );
        expect(second.sessions.map((s) => s.merchantReference)).toEqual(["ref-2", "ref-1", "ref-0"]);
        expect(second.hasMore).toBe(false);
      });

      it("when filters are given, then only matching sessions of the scope are listed", async () => {
        const scope = newScope();
        const sessions = await seed(scope, 4, (i) => new Date(Date.UTC(2026, 0, 1 + i)));
        await repo.updateIf(sessions[1]!, { status: "CANCELED" });
        await seed({ ...scope, livemode: true }, 2, (i) => new Date(Date.UTC(2026, 0, 1 + i)));
        await seed(newScope(), 2, (i) => new Date(Date.UTC(2026, 0, 1 + i)));

        const ids = async (filter: Parameters<SessionRepository["list"]>[1]) =>
          (await repo.list(scope, filter, { limit: 100 })).sessions.map((s) => s.merchantReference);
        expect(await ids({})).toEqual(["ref-3", "ref-2", "ref-1", "ref-0"]);
        expect(await ids({ status: "CANCELED" })).toEqual(["ref-1"]);
        expect(await ids({ status: "CREATED" as SessionStatus })).toEqual(["ref-3", "ref-2", "ref-0"]);
        expect(await ids({ merchantReference: "ref-2" })).toEqual(["ref-2"]);
        expect(
          await ids({
            createdGte: new Date(Date.UTC(2026, 0, 2)),
            createdLte: new Date(Date.UTC(2026, 0, 3)),
          }),
        ).toEqual(["ref-2", "ref-1"]);
        expect(await ids({ createdGte: new Date(Date.UTC(2026, 0, 4)) })).toEqual(["ref-3"]);
        expect(await ids({ createdLte: new Date(Date.UTC(2026, 0, 1)) })).toEqual(["ref-0"]);
      });

      it("when filtering by order number or exact amount, then only those sessions of the scope are listed", async () => {
        const scope = newScope();
        const at = (i: number) => new Date(Date.UTC(2026, 0, 1 + i));
        const amounts = ["12.500", "99.000", "12.500"];
        const sessions = amounts.map((amount, i) =>
          sessionFixture(scope, { merchantReference: `amt-${i}`, amount, currency: "TND" }, at(i)),
        );
        for (const s of sessions) await repo.insert(s);
        const elsewhere = sessionFixture(newScope(), {
          merchantReference: "amt-x",
          amount: "12.500",
          currency: "TND",
        });
        await repo.insert(elsewhere);

        const refs = async (filter: Parameters<SessionRepository["list"]>[1]) =>
          (await repo.list(scope, filter, { limit: 100 })).sessions.map((s) => s.merchantReference);
        expect(await refs({ orderNumber: sessions[1]!.orderNumber })).toEqual(["amt-1"]);
        expect(await refs({ orderNumber: elsewhere.orderNumber })).toEqual([]);
        expect(await refs({ amountMinor: 12_500n })).toEqual(["amt-2", "amt-0"]);
        expect(await refs({ amountMinor: 12_500n, status: "CREATED" as SessionStatus })).toEqual([
          "amt-2",
          "amt-0",
        ]);
        expect(await refs({ amountMinor: 12_500n, createdLte: at(0) })).toEqual(["amt-0"]);
        expect(await refs({ amountMinor: 12_501n })).toEqual([]);
      });

      it("when filtering by an amount too large for a small integer, then it matches exactly, as a small one does", async () => {
        // Above 2^30 - 1 minor units, as a large amount in rupiah is.
        const scope = newScope();
        const amounts = [2_000_000_000n, 2_000_000_001n, 1_073_741_823n];
        for (const [i, amountMinor] of amounts.entries())
          await repo.insert({ ...sessionFixture(scope, { merchantReference: `big-${i}` }), amountMinor });
        const refs = async (amountMinor: bigint) =>
          (await repo.list(scope, { amountMinor }, { limit: 100 })).sessions.map((s) => s.merchantReference);
        expect(await refs(2_000_000_000n)).toEqual(["big-0"]);
        expect(await refs(2_000_000_001n)).toEqual(["big-1"]);
        expect(await refs(1_073_741_823n)).toEqual(["big-2"]);
        expect(await refs(1_073_741_824n)).toEqual([]);
      });

      it("when 250 sessions share timestamps in groups, then paging through them yields each exactly once, in order", async () => {
        const scope = newScope();
        const clock = new ManualClock(Date.UTC(2026, 2, 1));
        const d = deps(clock);
        const created: Session[] = [];
        for (let batch = 0; batch < 10; batch++) {
          // 25 creates at one instant: only the id orders them.
          const outcomes = await Promise.all(
            Array.from({ length: 25 }, (_, i) =>
              createSession(d, createInput(scope, { merchantReference: `bulk-${batch}-${i}` })),
            ),
          );
          created.push(...outcomes.map((o) => o.session));
          clock.advance(batch % 2 === 0 ? 1 : 1000);
        }
        const seen: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await listSessions(repo, scope, {
            filter: {},
            limit: 7,
            ...(cursor ? { startingAfter: cursor } : {}),
          });
          seen.push(...page.sessions.map((s) => s.id));
          expect(page.hasMore).toBe(page.nextCursor !== undefined);
          cursor = page.nextCursor;
          pages++;
        } while (cursor);
        const expected = [...created].sort(
          (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1),
        );
        expect(seen).toHaveLength(250);
        expect(new Set(seen).size).toBe(250);
        expect(seen).toEqual(expected.map((s) => s.id));
        expect(pages).toBe(36);
      }, 180_000);
    });

    describe("through the use cases", () => {
      it("when 50 identical creates race with a new reference, then exactly one session exists and all agree on it", async () => {
        const scope = newScope();
        const d = deps();
        const input = createInput(scope, { merchantReference: "race-1", amount: "10.00", currency: "EUR" });
        const outcomes = await Promise.all(Array.from({ length: 50 }, () => createSession(d, { ...input })));
        const ids = new Set(outcomes.map((o) => o.session.id));
        expect(ids.size).toBe(1);
        expect(outcomes.filter((o) => o.created)).toHaveLength(1);
        for (const o of outcomes) expect(o.session).toEqual(outcomes[0]!.session);
        const page = await repo.list(scope, {}, { limit: 100 });
        expect(page.sessions.map((s) => s.id)).toEqual([...ids]);
      }, 120_000);

      it("when racing creates differ, then one wins and the others get a conflict naming it", async () => {
        const scope = newScope();
        const d = deps();
        const results = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) =>
            createSession(d, createInput(scope, { merchantReference: "race-2", amount: `${10 + i}.000` })),
          ),
        );
        const won = results.filter(
          (r): r is PromiseFulfilledResult<Awaited<ReturnType<typeof createSession>>> =>
            r.status === "fulfilled",
        );
        const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(9);
        for (const r of lost) {
          expect(r.reason).toBeInstanceOf(GatewayError);
          expect((r.reason as GatewayError).reason).toBe("CONFLICT");
          expect((r.reason as GatewayError).metadata.existing_session_id).toBe(won[0]!.value.session.id);
        }
      });

      it("when a session is canceled, then it is CANCELED, stays so on repeat, and has no checkout link", async () => {
        const scope = newScope();
        const clock = new ManualClock();
        const { session } = await createSession(deps(clock), createInput(scope));
        clock.advance(5000);
        const canceled = await cancelSession(offlinePaymentDeps(repo, clock), scope, session.id);
        expect(canceled).toMatchObject({ status: "CANCELED", version: 2, completedAt: clock.now() });
        clock.advance(5000);
        expect(await cancelSession(offlinePaymentDeps(repo, clock), scope, session.id)).toEqual(canceled);
        expect(await getSession(repo, scope, session.id)).toEqual(canceled);
      });

      it("when 20 cancels race, then all return the same CANCELED session and it changed once", async () => {
        const scope = newScope();
        const clock = new ManualClock();
        const { session } = await createSession(deps(clock), createInput(scope));
        const results = await Promise.all(
          Array.from({ length: 20 }, () => cancelSession(offlinePaymentDeps(repo, clock), scope, session.id)),
        );
        for (const r of results) expect(r).toEqual(results[0]);
        expect(results[0]).toMatchObject({ status: "CANCELED", version: 2 });
      });

      it.each(["SUCCEEDED", "FAILED", "EXPIRED"] as const)(
        "when a %s session is canceled, then it fails SESSION_TERMINAL and is unchanged",
        async (status) => {
          const scope = newScope();
          const clock = new ManualClock();
          const { session } = await createSession(deps(clock), createInput(scope));
          await repo.updateIf(session, { status });
          expect(await reasonOf(cancelSession(offlinePaymentDeps(repo, clock), scope, session.id))).toBe(
            "SESSION_TERMINAL",
          );
          expect((await repo.findById(scope, session.id))?.status).toBe(status);
        },
      );

      it("when a PROCESSING session is canceled and the acquirer cannot be asked, then it is CANCELED all the same", async () => {
        const scope = newScope();
        const clock = new ManualClock();
        const { session } = await createSession(deps(clock), createInput(scope));
        await repo.updateIf(session, { status: "PROCESSING" });
        expect((await cancelSession(offlinePaymentDeps(repo, clock), scope, session.id)).status).toBe(
          "CANCELED",
        );
      });

      it("when another merchant or the other mode reads, cancels or lists a session, then it is not found", async () => {
        const scope = newScope();
        const clock = new ManualClock();
        const { session } = await createSession(deps(clock), createInput(scope));
        for (const other of [newScope(), { ...scope, livemode: true }]) {
          expect(await reasonOf(getSession(repo, other, session.id))).toBe("NOT_FOUND");
          expect(await reasonOf(cancelSession(offlinePaymentDeps(repo, clock), other, session.id))).toBe(
            "NOT_FOUND",
          );
          expect((await listSessions(repo, other, { filter: {} })).sessions).toEqual([]);
          expect(await reasonOf(listSessions(repo, other, { filter: {}, startingAfter: session.id }))).toBe(
            "VALIDATION_ERROR",
          );
        }
        expect((await getSession(repo, scope, session.id)).status).toBe("CREATED");
      });
    });

    describe("payments: links, attempts and acquirer orders", () => {
      it("when a checkout token is looked up, then its session is found whatever the account, through old and new links", async () => {
        const scope = newScope(true);
        const session = sessionFixture(scope);
        await repo.insert(session);
        expect((await repo.findByCheckoutToken(session.checkoutLinks[0]!.token))?.id).toBe(session.id);
        const extra = {
          token: randomBase62(32),
          createdAt: new Date(Date.UTC(2026, 0, 1, 1)),
          expiresAt: new Date(Date.UTC(2026, 0, 1, 2)),
        };
        await repo.updateIf(session, { checkoutLinks: [...session.checkoutLinks, extra] });
        expect((await repo.findByCheckoutToken(extra.token))?.id).toBe(session.id);
        expect((await repo.findByCheckoutToken(session.checkoutLinks[0]!.token))?.id).toBe(session.id);
        expect(await repo.findByCheckoutToken(randomBase62(32))).toBeUndefined();
      });

      it("when attempts are stored, then they read back field for field and are found by their acquirer order id", async () => {
        const scope = newScope();
        const session = sessionFixture(scope);
        await repo.insert(session);
        const at = new Date(Date.UTC(2026, 0, 1, 3));
        const orderId = `ord-${randomBase62(12)}`;
        const settled: PaymentAttempt = {
          ...newAttempt(session, session.checkoutLinks[0]!.token, at),
          status: "SUCCEEDED",
          acquirerOrderId: orderId,
          formUrl: "https://acquirer.example/payment/1",
          cardBrand: "visa",
          cardLastFour: "4242",
          cardCountry: "US",
          feeMinor: 9_007_199_254_740_993n,
          netMinor: 0n,
          settledAt: at,
          settledBy: "callback",
          duplicatePayment: true,
        };
        const initiated: PaymentAttempt = {
          ...newAttempt({ ...session, attempts: [settled] }, session.checkoutLinks[0]!.token, at),
          status: "INITIATED",
        };
        const declined: PaymentAttempt = {
          ...newAttempt({ ...session, attempts: [settled, initiated] }, session.checkoutLinks[0]!.token, at),
          status: "FAILED",
          acquirerOrderId: `ord-${randomBase62(12)}`,
          failureCode: "card_declined",
          failureMessage: "The card was declined.",
        };
        const result = await repo.updateIf(session, {
          attempts: [settled, initiated, declined],
        });
        expect(result.updated && result.session.attempts).toEqual([settled, initiated, declined]);
        const read = await repo.findByAcquirerOrderId(orderId);
        expect(read?.id).toBe(session.id);
        expect(read?.attempts).toEqual([settled, initiated, declined]);
        expect(typeof read?.attempts[0]?.feeMinor).toBe("bigint");
        expect((await repo.findByAcquirerOrderId(declined.acquirerOrderId!))?.id).toBe(session.id);
        expect(await repo.findByAcquirerOrderId("ord-unknown")).toBeUndefined();
      });
    });

    describe("due work for the sweeper", () => {
      // Before 1970, so that no other test's session (ManualClock starts at 0) is due at these instants.
      const t0 = Date.UTC(1960, 0, 1) + Math.floor(Math.random() * 86_400_000);
      const at = (ms: number) => new Date(t0 + ms);
      const HOUR = 3_600_000;

      async function stored(
        status: SessionStatus,
        schedule: Pick<Session, "expiresAt"> & Partial<Pick<Session, "linkExpiryDueAt" | "reconcileAt">>,
      ): Promise<Session> {
        // Only the schedule given: the fixture's own first-link expiry is dropped.
        const { linkExpiryDueAt: _fixtureLinkDue, ...fixture } = sessionFixture(newScope(), {}, at(0));
        const session: Session = { ...fixture, status, ...schedule };
        expect(await repo.insert(session)).toEqual({ inserted: true });
        return session;
      }

      it("when sessions have due work, then findDue returns those due at now, most overdue first, across accounts, at most limit", async () => {
        const expiring = await stored("PENDING", { expiresAt: at(HOUR) });
        const linkDue = await stored("CREATED", { expiresAt: at(10 * HOUR), linkExpiryDueAt: at(HOUR / 2) });
        const reconcileDue = await stored("SUCCEEDED", { expiresAt: at(HOUR), reconcileAt: at(2 * HOUR) });
        await stored("EXPIRED", { expiresAt: at(0) });
        await stored("CREATED", { expiresAt: at(24 * HOUR) });
        await stored("CANCELED", { expiresAt: at(0), reconcileAt: at(4 * HOUR) });

        expect((await repo.findDue(at(3 * HOUR), 10)).map((s) => s.id)).toEqual([
          linkDue.id,
          expiring.id,
          reconcileDue.id,
        ]);
        expect((await repo.findDue(at(3 * HOUR), 2)).map((s) => s.id)).toEqual([linkDue.id, expiring.id]);
        expect(await repo.findDue(at(HOUR / 2 - 1), 10)).toEqual([]);
        const found = (await repo.findDue(at(3 * HOUR), 10))[2]!;
        expect(found).toEqual(reconcileDue);
      });

      it("when the look is limited to work due since a moment, then older work is left out, whatever its kind", async () => {
        // Twenty days after the other tests' sessions, so that their looks never see these; theirs
        // are left out of ours.
        const later = (ms: number) => at(ms + 20 * 24 * HOUR);
        const longExpired = await stored("PENDING", { expiresAt: later(HOUR) });
        const justExpired = await stored("CREATED", { expiresAt: later(2 * HOUR + 30_000) });
        const oldLinkDue = await stored("CREATED", {
          expiresAt: later(10 * HOUR),
          linkExpiryDueAt: later(HOUR / 2),
        });
        const newLinkDue = await stored("CREATED", {
          expiresAt: later(10 * HOUR),
          linkExpiryDueAt: later(2 * HOUR + 10_000),
        });
        const reconcileDue = await stored("SUCCEEDED", {
          expiresAt: later(HOUR),
          reconcileAt: later(2 * HOUR + 60_000),
        });
        const ours = new Set([longExpired.id, justExpired.id, oldLinkDue.id, newLinkDue.id, reconcileDue.id]);
        const now = later(2 * HOUR + 90_000);
        const look = async (since?: Date) =>
          (await repo.findDue(now, 100, since)).map((s) => s.id).filter((id) => ours.has(id));
        expect(await look(later(2 * HOUR))).toEqual([newLinkDue.id, justExpired.id, reconcileDue.id]);
        const everything = [oldLinkDue.id, longExpired.id, newLinkDue.id, justExpired.id, reconcileDue.id];
        expect(await look()).toEqual(everything);
        // A window of most of an hour (the sweeper's catch-up), looked at minute by minute.
        expect(await look(later(HOUR + 40 * 60_000))).toEqual([
          newLinkDue.id,
          justExpired.id,
          reconcileDue.id,
        ]);
        expect((await repo.findDue(now, 1, later(HOUR + 40 * 60_000))).map((s) => s.id)).toEqual([
          newLinkDue.id,
        ]);
        // A window longer than the store looks at minute by minute: still exact.
        expect(await look(later(HOUR / 2))).toEqual(everything);
      });

      it("when the schedule is cleared or moved by an update, then findDue follows it", async () => {
        // Ten days before the other test's sessions, so that none of them is due here.
        const earlier = (ms: number) => at(ms - 10 * 24 * HOUR);
        const session = await stored("PROCESSING", {
          expiresAt: earlier(10 * HOUR),
          linkExpiryDueAt: earlier(HOUR),
          reconcileAt: earlier(HOUR),
        });
        expect((await repo.findDue(earlier(2 * HOUR), 10)).map((s) => s.id)).toEqual([session.id]);
        const moved = await repo.updateIf(session, {
          linkExpiryDueAt: null,
          reconcileAt: earlier(5 * HOUR),
        });
        expect(moved.updated && moved.session.linkExpiryDueAt).toBeUndefined();
        expect(moved.updated && moved.session.reconcileAt).toEqual(earlier(5 * HOUR));
        expect(await repo.findDue(earlier(2 * HOUR), 10)).toEqual([]);
        expect((await repo.findDue(earlier(5 * HOUR), 10)).map((s) => s.id)).toEqual([session.id]);
      });
    });

    describe("the event outbox", () => {
      async function drain(): Promise<void> {
        for (const e of await repo.findPendingOutbox(10_000))
          await repo.markOutboxPublished(e.sessionId, e.eventId, new Date());
      }

      async function pendingOf(sessionId: string) {
        return (await repo.findPendingOutbox(10_000)).filter((e) => e.sessionId === sessionId);
      }

      it("when a change stores events, then they are pending with their exact bytes and headers, and the sequence is the session's", async () => {
        const scope = newScope();
        const session = sessionFixture(scope);
        await repo.insert(session);
        const events = [outboxEvent(1), outboxEvent(2, "session.succeeded")];
        const result = await repo.updateIf(session, { status: "SUCCEEDED", lastEventSequence: 2 }, events);
        expect(result.updated && result.session).toMatchObject({
          status: "SUCCEEDED",
          lastEventSequence: 2,
          version: 2,
        });
        expect((await repo.findById(scope, session.id))?.lastEventSequence).toBe(2);
        const pending = await pendingOf(session.id);
        expect(pending).toEqual(events.map((e) => ({ sessionId: session.id, ...e })));
        expect(pending[0]!.payload).toBeInstanceOf(Uint8Array);
      });

      it("when a change loses its compare-and-set, then its events are not stored", async () => {
        const scope = newScope();
        const session = sessionFixture(scope);
        await repo.insert(session);
        await repo.updateIf(session, { status: "PENDING" });
        const result = await repo.updateIf(session, { status: "FAILED", lastEventSequence: 1 }, [
          outboxEvent(1),
        ]);
        expect(result.updated).toBe(false);
        expect(await pendingOf(session.id)).toEqual([]);
        expect((await repo.findById(scope, session.id))?.lastEventSequence).toBe(0);
      });

      it("when an event is marked published, then it is no longer pending, repeats are harmless, and the session's version is untouched", async () => {
        const scope = newScope();
        const session = sessionFixture(scope);
        await repo.insert(session);
        const [first, second] = [outboxEvent(1), outboxEvent(2)];
        await repo.updateIf(session, { lastEventSequence: 2 }, [first!, second!]);
        await repo.markOutboxPublished(session.id, first!.eventId, new Date());
        await repo.markOutboxPublished(session.id, first!.eventId, new Date());
        await repo.markOutboxPublished(session.id, "evt_unknown", new Date());
        await repo.markOutboxPublished("ps_unknown", first!.eventId, new Date());
        expect((await pendingOf(session.id)).map((e) => e.eventId)).toEqual([second!.eventId]);
        expect(await storedOutbox(session.id)).toEqual([
          { eventId: first!.eventId, published: true },
          { eventId: second!.eventId, published: false },
        ]);
        // Marking does not count as a change of the session: a state change read before still lands.
        expect((await repo.updateIf({ ...session, version: 2 }, { status: "PENDING" })).updated).toBe(true);
      });

      it("when many events of one session are marked at once and more are appended meanwhile, then none is lost or left pending", async () => {
        const scope = newScope();
        const session = sessionFixture(scope);
        await repo.insert(session);
        const events = Array.from({ length: 8 }, (_, i) => outboxEvent(i + 1));
        await repo.updateIf(session, { lastEventSequence: 8 }, events);
        const later = outboxEvent(9);
        await Promise.all([
          ...events.map((e) => repo.markOutboxPublished(session.id, e.eventId, new Date())),
          repo.updateIf({ ...session, version: 2 }, { lastEventSequence: 9 }, [later]),
        ]);
        expect((await pendingOf(session.id)).map((e) => e.eventId)).toEqual([later.eventId]);
        expect((await storedOutbox(session.id)).filter((e) => e.published)).toHaveLength(8);
      });

      it(`when more than ${PUBLISHED_OUTBOX_KEPT} events were published, then only the newest ${PUBLISHED_OUTBOX_KEPT} are kept, and pending ones never go`, async () => {
        const scope = newScope();
        let session = sessionFixture(scope);
        await repo.insert(session);
        const events = Array.from({ length: PUBLISHED_OUTBOX_KEPT + 6 }, (_, i) => outboxEvent(i + 1));
        const result = await repo.updateIf(session, { lastEventSequence: events.length }, events);
        if (!result.updated) throw new Error("could not store the events");
        session = result.session;
        const [lastPending, ...rest] = [...events].reverse();
        for (const e of rest.reverse()) await repo.markOutboxPublished(session.id, e.eventId, new Date());
        const stored = await storedOutbox(session.id);
        expect(stored.filter((e) => e.published)).toHaveLength(PUBLISHED_OUTBOX_KEPT);
        expect(stored.map((e) => e.eventId)).toEqual(
          events.slice(events.length - PUBLISHED_OUTBOX_KEPT - 1).map((e) => e.eventId),
        );
        expect(stored.at(-1)).toEqual({ eventId: lastPending!.eventId, published: false });
      });

      it("when the relay asks for at most N events, then it gets N, each session's as a prefix in sequence order", async () => {
        await drain();
        const sessions: Session[] = [];
        for (let i = 0; i < 3; i++) {
          const scope = newScope();
          const session = sessionFixture(scope);
          await repo.insert(session);
          // Appended out of order on purpose: the sequence decides.
          await repo.updateIf(
            session,
            { updatedAt: new Date(Date.UTC(2026, 0, 2, i)), lastEventSequence: 2 },
            [outboxEvent(2), outboxEvent(1)],
          );
          sessions.push(session);
        }
        const page = await repo.findPendingOutbox(3);
        expect(page).toHaveLength(3);
        const bySession = new Map<string, number[]>();
        for (const e of page) bySession.set(e.sessionId, [...(bySession.get(e.sessionId) ?? []), e.sequence]);
        for (const sequences of bySession.values())
          expect(sequences).toEqual([1, 2].slice(0, sequences.length));
        expect(sessions.map((s) => s.id)).toEqual(expect.arrayContaining([...bySession.keys()]));
        expect(await repo.findPendingOutbox(100)).toHaveLength(6);
      });
    });
  });
}
