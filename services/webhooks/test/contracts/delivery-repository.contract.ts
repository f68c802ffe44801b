import { newId } from "@gateway/platform";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DeliveryRepository } from "../../src/app/ports.js";
import type { AccountScope } from "../../src/domain/account-scope.js";
import type { Delivery } from "../../src/domain/delivery.js";
import { newScope } from "../support/fixtures.js";

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const at = (ms: number) => new Date(T0 + ms);

function attempt(scope: AccountScope, o: Partial<Delivery> = {}): Delivery {
  return {
    id: newId("whd"),
    scope,
    sessionId: "ps_session_1",
    event: "session.succeeded",
    eventId: newId("evt"),
    url: "https://shop.example.tn/hooks",
    attemptNumber: 1,
    chainAttempt: 1,
    trigger: "initial",
    status: "PENDING",
    createdAt: at(0),
    dueAt: at(0),
    ...o,
  };
}

export interface DeliveryRepositoryFixture {
  repo: DeliveryRepository;
  close(): Promise<void>;
}

/**
 * The one contract every DeliveryRepository adapter meets (in memory, MongoDB/FerretDB). Each
 * test gets an empty store: the work queue is global, so tests must not see each other's attempts.
 */
export function deliveryRepositoryContract(
  adapter: string,
  open: () => Promise<DeliveryRepositoryFixture>,
): void {
  describe(`DeliveryRepository contract: ${adapter}`, () => {
    let fixture: DeliveryRepositoryFixture;
    let repo: DeliveryRepository;
    beforeEach(async () => {
      fixture = await open();
      repo = fixture.repo;
    });
    afterEach(async () => {
      await fixture.close();
    });

    describe("storing and reading", () => {
      it("when an attempt with every field is inserted, then it reads back field for field", async () => {
        const scope = newScope(true);
        const full = attempt(scope, {
          status: "FAILED",
          trigger: "retry",
          attemptNumber: 2,
          chainAttempt: 2,
          httpStatusCode: 503,
          responseTimeMs: 1234,
          errorMessage: "Receiver answered HTTP 503 Service Unavailable",
          nextRetryAt: at(7_200_000),
          completedAt: at(5),
        });
        expect(await repo.insert(full)).toBe("inserted");
        expect(await repo.findById(full.id)).toEqual(full);
        const bare = attempt(scope, { url: "" });
        await repo.insert(bare);
        expect(await repo.findById(bare.id)).toEqual(bare);
      });

      it("when the id or the (event, attempt number) repeats, then the insert reports it and changes nothing", async () => {
        const scope = newScope();
        const first = attempt(scope);
        await repo.insert(first);
        expect(await repo.insert({ ...first, url: "https://other.example/" })).toBe("already_exists");
        expect(await repo.insert(attempt(scope, { eventId: first.eventId, attemptNumber: 1 }))).toBe(
          "already_exists",
        );
        expect(await repo.insert(attempt(scope, { eventId: first.eventId, attemptNumber: 2 }))).toBe(
          "inserted",
        );
        expect((await repo.findById(first.id))?.url).toBe("https://shop.example.tn/hooks");
      });

      it("when another account or the other mode asks for an attempt, then it is not found", async () => {
        const scope = newScope(false);
        const d = attempt(scope);
        await repo.insert(d);
        expect(await repo.findInScope(scope, d.id)).toEqual(d);
        expect(await repo.findInScope({ ...scope, livemode: true }, d.id)).toBeUndefined();
        expect(await repo.findInScope(newScope(false), d.id)).toBeUndefined();
        expect(await repo.findById("whd_missing")).toBeUndefined();
      });

      it("when an event has several attempts, then the latest is the one with the highest number", async () => {
        const scope = newScope();
        const eventId = newId("evt");
        for (const n of [1, 3, 2])
          await repo.insert(attempt(scope, { eventId, attemptNumber: n, createdAt: at(n) }));
        expect((await repo.latestForEvent(eventId))?.attemptNumber).toBe(3);
        expect(await repo.latestForEvent("evt_none")).toBeUndefined();
      });
    });

    describe("claiming due attempts", () => {
      it("when attempts are due, then the one due the longest comes first and future ones wait", async () => {
        const scope = newScope();
        const later = attempt(scope, { dueAt: at(2_000) });
        const older = attempt(scope, { dueAt: at(500) });
        const future = attempt(scope, { dueAt: at(60_000) });
        for (const d of [later, older, future]) await repo.insert(d);
        const first = await repo.claimNextDue(at(3_000), at(13_000), "t1");
        expect(first?.id).toBe(older.id);
        expect(first?.claim).toEqual({ token: "t1", until: at(13_000) });
        expect((await repo.claimNextDue(at(3_000), at(13_000), "t2"))?.id).toBe(later.id);
        expect(await repo.claimNextDue(at(3_000), at(13_000), "t3")).toBeUndefined();
      });

      it("when an attempt is claimed, then nobody else gets it until the lease expires, then someone does", async () => {
        const d = attempt(newScope());
        await repo.insert(d);
        expect((await repo.claimNextDue(at(0), at(10_000), "first"))?.id).toBe(d.id);
        expect(await repo.claimNextDue(at(9_999), at(20_000), "second")).toBeUndefined();
        const taken = await repo.claimNextDue(at(10_000), at(20_000), "second");
        expect(taken?.id).toBe(d.id);
        expect(taken?.claim?.token).toBe("second");
        // The first holder's outcome no longer counts.
        expect(
          await repo.complete(d.id, "first", { status: "SUCCEEDED", url: d.url, completedAt: at(10_001) }),
        ).toBe(false);
        expect(
          await repo.complete(d.id, "second", { status: "SUCCEEDED", url: d.url, completedAt: at(10_002) }),
        ).toBe(true);
      });

      it("when many claim at once, then every due attempt goes to exactly one of them", async () => {
        const scope = newScope();
        const ids = new Set<string>();
        for (let i = 0; i < 8; i++) {
          const d = attempt(scope, { dueAt: at(i) });
          ids.add(d.id);
          await repo.insert(d);
        }
        const claims = await Promise.all(
          Array.from({ length: 20 }, (_, i) => repo.claimNextDue(at(100), at(60_000), `t${i}`)),
        );
        const got = claims.filter((c): c is Delivery => c !== undefined).map((c) => c.id);
        expect(got).toHaveLength(8);
        expect(new Set(got)).toEqual(ids);
      });

      it("when completed attempts are due, then they are never claimed", async () => {
        const d = attempt(newScope(), { status: "FAILED", completedAt: at(0) });
        await repo.insert(d);
        expect(await repo.claimNextDue(at(1_000), at(2_000), "t")).toBeUndefined();
      });
    });

    describe("superseded attempts", () => {
      it("when later attempts of an event are noted, then lists of latest attempts leave the earlier ones out", async () => {
        const scope = newScope();
        const eventId = newId("evt");
        const first = attempt(scope, { eventId, attemptNumber: 1, createdAt: at(1) });
        const second = attempt(scope, { eventId, attemptNumber: 2, createdAt: at(2) });
        const other = attempt(scope, { createdAt: at(3) });
        for (const d of [first, second, other]) await repo.insert(d);
        await repo.markSuperseded(eventId, 2);
        await repo.markSuperseded(eventId, 2);
        const latest = await repo.list(scope, { latestOnly: true }, { limit: 10 });
        expect(latest.deliveries.map((d) => d.id)).toEqual([other.id, second.id]);
        const all = await repo.list(scope, {}, { limit: 10 });
        expect(all.deliveries.map((d) => d.id)).toEqual([other.id, second.id, first.id]);
      });
    });

    describe("claiming due attempts in batches", () => {
      it("when several are claimed at once, then the oldest due go first, each leased to its own token", async () => {
        const scope = newScope();
        const ds = [3, 1, 4, 2, 5].map((n) => attempt(scope, { dueAt: at(n * 100) }));
        for (const d of ds) await repo.insert(d);
        const claimed = await repo.claimDue(at(1_000), at(9_000), ["a", "b", "c"]);
        expect(claimed.map((c) => c.dueAt)).toEqual([at(100), at(200), at(300)]);
        expect(new Set(claimed.map((c) => c.claim?.token))).toEqual(new Set(["a", "b", "c"]));
        expect((await repo.claimDue(at(1_000), at(9_000), ["d", "e", "f"])).map((c) => c.dueAt)).toEqual([
          at(400),
          at(500),
        ]);
        expect(await repo.claimDue(at(1_000), at(9_000), ["g"])).toEqual([]);
      });

      it("when due attempts are found, then the oldest due come first, none leased, none skipped, none claimed", async () => {
        const scope = newScope();
        const ds = [3, 1, 4, 2, 5, 6].map((n) =>
          attempt(scope, {
            dueAt: at(n * 100),
            ...(n === 6 ? { url: "https://skipped.example/hooks" } : {}),
          }),
        );
        for (const d of ds) await repo.insert(d);
        await repo.insert(attempt(scope, { dueAt: at(5_000) }));
        const [leased] = await repo.claimDue(at(1_000), at(9_000), ["lease"]);
        expect(leased?.dueAt).toEqual(at(100));

        const found = await repo.findDue(at(1_000), 3, ["https://skipped.example/hooks"]);
        expect(found.map((d) => d.dueAt)).toEqual([at(200), at(300), at(400)]);
        expect(found.every((d) => d.claim === undefined)).toBe(true);
        expect(
          (await repo.findDue(at(1_000), 10, ["https://skipped.example/hooks"])).map((d) => d.dueAt),
        ).toEqual([at(200), at(300), at(400), at(500)]);
        // Found, not taken: each can still be claimed by id.
        for (const d of found)
          expect(await repo.claimIfDue(d.id, at(1_000), at(9_000), `t-${d.id}`)).toBeDefined();
      });

      it("when batches are claimed side by side, then every due attempt goes to exactly one claimer", async () => {
        const scope = newScope();
        const ids = new Set<string>();
        for (let i = 0; i < 12; i++) {
          const d = attempt(scope, { dueAt: at(i) });
          ids.add(d.id);
          await repo.insert(d);
        }
        const batches = await Promise.all(
          Array.from({ length: 4 }, (_, b) =>
            repo.claimDue(at(100), at(60_000), [`t${b}a`, `t${b}b`, `t${b}c`, `t${b}d`, `t${b}e`]),
          ),
        );
        const got = batches.flat().map((c) => c.id);
        expect(got).toHaveLength(12);
        expect(new Set(got)).toEqual(ids);
      });
    });

    describe("claiming due attempts past busy endpoints", () => {
      it("when a look skips a URL, then that URL's attempts stay and the next due attempt elsewhere is claimed", async () => {
        const scope = newScope();
        const busy = attempt(scope, { dueAt: at(0), url: "https://busy.example/hooks" });
        const other = attempt(scope, { dueAt: at(500), url: "https://other.example/hooks" });
        for (const d of [busy, other]) await repo.insert(d);
        const skip = ["https://busy.example/hooks"];
        expect((await repo.claimNextDue(at(1_000), at(2_000), "t1", skip))?.id).toBe(other.id);
        expect(await repo.claimNextDue(at(1_000), at(2_000), "t2", skip)).toBeUndefined();
        expect((await repo.claimNextDue(at(1_000), at(2_000), "t3"))?.id).toBe(busy.id);
      });
    });

    describe("claiming one known attempt (on its event)", () => {
      it("when the attempt is due and free, then it is claimed; a second claim waits for the lease to run out", async () => {
        const d = attempt(newScope());
        await repo.insert(d);
        const first = await repo.claimIfDue(d.id, at(0), at(10_000), "first");
        expect(first?.id).toBe(d.id);
        expect(first?.claim).toEqual({ token: "first", until: at(10_000) });
        expect(await repo.claimIfDue(d.id, at(9_999), at(20_000), "second")).toBeUndefined();
        expect(await repo.claimNextDue(at(9_999), at(20_000), "look")).toBeUndefined();
        expect((await repo.claimIfDue(d.id, at(10_000), at(20_000), "second"))?.claim?.token).toBe("second");
        expect(
          await repo.complete(d.id, "first", { status: "SUCCEEDED", url: d.url, completedAt: at(10_001) }),
        ).toBe(false);
      });

      it("when the attempt is settled, not yet due or unknown, then nothing is claimed", async () => {
        const settled = attempt(newScope(), { status: "SUCCEEDED", completedAt: at(0) });
        const future = attempt(newScope(), { dueAt: at(60_000) });
        for (const d of [settled, future]) await repo.insert(d);
        expect(await repo.claimIfDue(settled.id, at(1_000), at(2_000), "t")).toBeUndefined();
        expect(await repo.claimIfDue(future.id, at(1_000), at(2_000), "t")).toBeUndefined();
        expect(await repo.claimIfDue("whd_unknown", at(1_000), at(2_000), "t")).toBeUndefined();
        expect((await repo.claimIfDue(future.id, at(60_000), at(70_000), "t"))?.id).toBe(future.id);
      });

      it("when a lease is given back unused, then the attempt can be claimed at once and the old token records nothing", async () => {
        const d = attempt(newScope());
        await repo.insert({ ...d, claim: { token: "queued", until: at(40_000) } });
        expect(await repo.claimIfDue(d.id, at(1_000), at(50_000), "other")).toBeUndefined();
        expect(await repo.release(d.id, "someone-else", at(1_000))).toBe(false);
        expect(await repo.release(d.id, "queued", at(1_000))).toBe(true);
        expect(await repo.release(d.id, "queued", at(1_001))).toBe(false);
        expect((await repo.claimNextDue(at(1_002), at(50_000), "look"))?.id).toBe(d.id);
        expect(
          await repo.complete(d.id, "queued", { status: "SUCCEEDED", url: d.url, completedAt: at(1_003) }),
        ).toBe(false);
        expect(
          await repo.complete(d.id, "look", { status: "SUCCEEDED", url: d.url, completedAt: at(1_003) }),
        ).toBe(true);
      });

      it("when a lease has already run out or the attempt is settled, then giving it back changes nothing", async () => {
        const expired = attempt(newScope());
        await repo.insert({ ...expired, claim: { token: "late", until: at(5_000) } });
        expect(await repo.release(expired.id, "late", at(5_000))).toBe(false);
        expect((await repo.claimIfDue(expired.id, at(5_000), at(9_000), "taker"))?.claim?.token).toBe(
          "taker",
        );
        expect(await repo.release(expired.id, "late", at(5_001))).toBe(false);
        const settled = attempt(newScope());
        await repo.insert({ ...settled, claim: { token: "done", until: at(40_000) } });
        await repo.complete(settled.id, "done", {
          status: "SUCCEEDED",
          url: settled.url,
          completedAt: at(1),
        });
        expect(await repo.release(settled.id, "done", at(2))).toBe(false);
        expect((await repo.findById(settled.id))?.status).toBe("SUCCEEDED");
      });

      it("when a look and a claim by id race for one attempt, then exactly one of them gets it", async () => {
        const d = attempt(newScope());
        await repo.insert(d);
        const [byLook, byId] = await Promise.all([
          repo.claimNextDue(at(0), at(10_000), "look"),
          repo.claimIfDue(d.id, at(0), at(10_000), "event"),
        ]);
        expect([byLook, byId].filter((c) => c !== undefined)).toHaveLength(1);
      });
    });

    describe("completing", () => {
      it("when the holder records a failure, then the figures are stored, the lease is dropped and it is final", async () => {
        const d = attempt(newScope(), {
          trigger: "retry",
          chainAttempt: 2,
          attemptNumber: 2,
          nextRetryAt: at(0),
        });
        await repo.insert(d);
        await repo.claimNextDue(at(0), at(10_000), "tok");
        const result = {
          status: "FAILED" as const,
          url: "https://moved.example.tn/hooks",
          httpStatusCode: 500,
          responseTimeMs: 42,
          errorMessage: "Receiver answered HTTP 500 Internal Server Error",
          nextRetryAt: at(7_200_000),
          completedAt: at(50),
          requestHeaders: { "webhook-id": d.eventId, "webhook-signature": "v1,abc=" },
          responseExcerpt: "<h1>Internal Server Error</h1>",
        };
        expect(await repo.complete(d.id, "tok", result)).toBe(true);
        const stored = await repo.findById(d.id);
        expect(stored).toEqual({ ...d, ...result });
        expect(stored?.claim).toBeUndefined();
        expect(
          await repo.complete(d.id, "tok", { status: "SUCCEEDED", url: d.url, completedAt: at(60) }),
        ).toBe(false);
      });

      it("when a success is recorded, then the due time shown on the pending retry is cleared", async () => {
        const d = attempt(newScope(), { trigger: "retry", chainAttempt: 2, nextRetryAt: at(0) });
        await repo.insert(d);
        await repo.claimNextDue(at(0), at(10_000), "tok");
        expect(
          await repo.complete(d.id, "tok", {
            status: "SUCCEEDED",
            url: d.url,
            httpStatusCode: 204,
            responseTimeMs: 3,
            completedAt: at(9),
          }),
        ).toBe(true);
        const stored = await repo.findById(d.id);
        expect(stored?.status).toBe("SUCCEEDED");
        expect(stored?.nextRetryAt).toBeUndefined();
        expect(stored?.errorMessage).toBeUndefined();
      });

      it("when the token is wrong or the attempt was never claimed, then nothing changes", async () => {
        const d = attempt(newScope());
        await repo.insert(d);
        expect(
          await repo.complete(d.id, "nobody", { status: "SUCCEEDED", url: d.url, completedAt: at(1) }),
        ).toBe(false);
        expect(await repo.findById(d.id)).toEqual(d);
      });
    });

    describe("listing", () => {
      it("when an account lists, then its attempts come newest first, paged by position, and nothing of others", async () => {
        const scope = newScope();
        const mine: Delivery[] = [];
        for (let i = 0; i < 5; i++) {
          const d = attempt(scope, { createdAt: at(i * 1000) });
          mine.push(d);
          await repo.insert(d);
        }
        // Same instant: the id breaks the tie.
        const twin = attempt(scope, { createdAt: at(4000) });
        await repo.insert(twin);
        await repo.insert(attempt({ ...scope, livemode: true }));
        await repo.insert(attempt(newScope()));
        const expected = [...mine, twin]
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
          .map((d) => d.id);

        const first = await repo.list(scope, {}, { limit: 4 });
        expect(first.deliveries.map((d) => d.id)).toEqual(expected.slice(0, 4));
        expect(first.hasMore).toBe(true);
        const last = first.deliveries[3]!;
        const rest = await repo.list(
          scope,
          {},
          { limit: 4, after: { createdAt: last.createdAt, id: last.id } },
        );
        expect(rest.deliveries.map((d) => d.id)).toEqual(expected.slice(4));
        expect(rest.hasMore).toBe(false);
      });

      it("when filters are given, then only matching attempts are listed", async () => {
        const scope = newScope();
        const a = attempt(scope, {
          status: "FAILED",
          event: "session.failed",
          sessionId: "ps_a",
          createdAt: at(1000),
        });
        const b = attempt(scope, {
          status: "SUCCEEDED",
          event: "session.succeeded",
          sessionId: "ps_b",
          createdAt: at(2000),
        });
        const c = attempt(scope, {
          status: "FAILED",
          event: "session.succeeded",
          sessionId: "ps_a",
          createdAt: at(3000),
          eventId: b.eventId,
          attemptNumber: 2,
        });
        for (const d of [a, b, c]) await repo.insert(d);
        const ids = async (filter: Parameters<DeliveryRepository["list"]>[1]) =>
          (await repo.list(scope, filter, { limit: 10 })).deliveries.map((d) => d.id);
        expect(await ids({ status: "FAILED" })).toEqual([c.id, a.id]);
        expect(await ids({ event: "session.succeeded" })).toEqual([c.id, b.id]);
        expect(await ids({ sessionId: "ps_a" })).toEqual([c.id, a.id]);
        expect(await ids({ eventId: b.eventId })).toEqual([c.id, b.id]);
        expect(await ids({ createdGte: at(2000), createdLte: at(2000) })).toEqual([b.id]);
        expect(await ids({ status: "FAILED", sessionId: "ps_a", event: "session.failed" })).toEqual([a.id]);
        expect(await ids({ status: "PENDING" })).toEqual([]);
      });
    });
  });
}
