import { createTestDb, type TestDb } from "@gateway/testkit";
import type { IndexSpecification } from "mongodb";
import { describe, expect, it } from "vitest";
import {
  createMongoSessionRepository,
  SESSIONS_COLLECTION,
} from "../src/adapters/mongo/mongo-session-repository.js";
import { minuteOf } from "../src/adapters/mongo/next-due.js";
import type { Session } from "../src/domain/session.js";
import { sweepDueAt } from "../src/domain/sweep-schedule.js";
import { newScope, sessionFixture } from "./support/fixtures.js";

// The sweeper finds due work through one next due time per session document
// (docs/decisions.md#the-sweeper-finds-due-work-by-one-next-due-time). These tests read the
// stored fields, and write documents as an older version of the service would have.

const CREATED_AT = new Date(Date.UTC(2026, 0, 1));
const LONG_AFTER = new Date(Date.UTC(2026, 1, 1));
const NEXT_DUE_FIELDS = { nextDueAt: "", nextDueMinute: "", nextDueScheduled: "" };

async function withDb(name: string, run: (db: TestDb["db"]) => Promise<void>): Promise<void> {
  const testDb = await createTestDb(name);
  try {
    await run(testDb.db);
  } finally {
    await testDb.drop();
  }
}

function storedNextDue(db: TestDb["db"], id: string) {
  return db
    .collection(SESSIONS_COLLECTION)
    .findOne({ id }, { projection: { _id: 0, nextDueAt: 1, nextDueMinute: 1, nextDueScheduled: 1 } });
}

function nextDueOf(session: Session) {
  const due = sweepDueAt(session);
  return due === undefined
    ? { nextDueAt: null, nextDueMinute: null, nextDueScheduled: false }
    : { nextDueAt: new Date(due), nextDueMinute: minuteOf(due), nextDueScheduled: true };
}

describe("MongoSessionRepository: the sweeper's next due time", () => {
  it("when a session is stored and changed, then its document keeps the earliest time the sweeper has work", async () => {
    await withDb("sessions_next_due_changes", async (db) => {
      const repo = await createMongoSessionRepository(db);
      const session = sessionFixture(newScope(), {}, CREATED_AT);
      await repo.insert(session);
      expect(await storedNextDue(db, session.id)).toEqual(nextDueOf(session));
      expect(sweepDueAt(session)).toBeGreaterThan(CREATED_AT.getTime());

      // Reconciliation due before the expiry: it is now the next due time.
      const reconcileAt = new Date(CREATED_AT.getTime() + 60_000);
      const reconciling = await repo.updateIf(session, { status: "PROCESSING", reconcileAt });
      if (!reconciling.updated) throw new Error("the change was not stored");
      expect(await storedNextDue(db, session.id)).toEqual({
        nextDueAt: reconcileAt,
        nextDueMinute: "2026-01-01T00:01",
        nextDueScheduled: true,
      });

      // Reconciled: back to the session's own schedule.
      const reconciled = await repo.updateIf(reconciling.session, { status: "PENDING", reconcileAt: null });
      if (!reconciled.updated) throw new Error("the change was not stored");
      expect(await storedNextDue(db, session.id)).toEqual(nextDueOf(reconciled.session));
      expect((await storedNextDue(db, session.id))?.nextDueAt).toEqual(new Date(sweepDueAt(session)!));

      // Terminal, with nothing scheduled: the sweeper has no work on it.
      const ended = await repo.updateIf(reconciled.session, {
        status: "CANCELED",
        completedAt: CREATED_AT,
        linkExpiryDueAt: null,
      });
      expect(ended.updated).toBe(true);
      expect(await storedNextDue(db, session.id)).toEqual({
        nextDueAt: null,
        nextDueMinute: null,
        nextDueScheduled: false,
      });
      expect(await repo.findDue(LONG_AFTER, 10)).toEqual([]);
    });
  });

  it("when a database an earlier version set up has the six schedule indexes, then the start drops them for the next due time's two", async () => {
    await withDb("sessions_next_due_indexes", async (db) => {
      const sessions = db.collection(SESSIONS_COLLECTION);
      const retired: Array<{ key: IndexSpecification; name: string }> = [
        { key: { status: 1, expiresAt: 1 }, name: "expiry_due" },
        { key: { linkExpiryDueAt: 1 }, name: "link_expiry_due" },
        { key: { reconcileAt: 1 }, name: "reconcile_due" },
        { key: { expiryMinute: 1, status: 1 }, name: "expiry_minute" },
        { key: { linkExpiryMinute: 1 }, name: "link_expiry_minute" },
        { key: { reconcileMinute: 1 }, name: "reconcile_minute" },
      ];
      for (const { key, name } of retired) await sessions.createIndex(key, { name });

      await createMongoSessionRepository(db);

      const names = (await sessions.listIndexes().toArray()).map((i) => String(i.name));
      for (const { name } of retired) expect(names).not.toContain(name);
      expect(names).toEqual(expect.arrayContaining(["next_due_minute", "next_due"]));
    });
  });

  it("when documents an older version wrote have no next due time, then the start gives them one and due work is found", async () => {
    await withDb("sessions_next_due_backfill", async (db) => {
      const repo = await createMongoSessionRepository(db);
      const scope = newScope();
      const older = Array.from({ length: 3 }, () => sessionFixture(scope, {}, CREATED_AT));
      for (const session of older) await repo.insert(session);
      await db.collection(SESSIONS_COLLECTION).updateMany({}, { $unset: NEXT_DUE_FIELDS });
      expect(await repo.findDue(LONG_AFTER, 10, new Date(LONG_AFTER.getTime() - 60_000))).toEqual([]);

      const restarted = await createMongoSessionRepository(db);

      for (const session of older) expect(await storedNextDue(db, session.id)).toEqual(nextDueOf(session));
      expect((await restarted.findDue(LONG_AFTER, 10)).map((s) => s.id).sort()).toEqual(
        older.map((s) => s.id).sort(),
      );
    });
  });

  it("when an older replica writes a session during a rolling update, then the look by dates gives it its next due time and finds its work", async () => {
    await withDb("sessions_next_due_rolling", async (db) => {
      const repo = await createMongoSessionRepository(db);
      const session = sessionFixture(newScope(), {}, CREATED_AT);
      await repo.insert(session);
      // The older replica's insert: the same document without the fields it did not know.
      await db.collection(SESSIONS_COLLECTION).updateOne({ id: session.id }, { $unset: NEXT_DUE_FIELDS });

      expect((await repo.findDue(LONG_AFTER, 10)).map((s) => s.id)).toEqual([session.id]);
      expect(await storedNextDue(db, session.id)).toEqual(nextDueOf(session));
    });
  });

  it("when an older replica's change left a stale next due time, then the look that reads it puts it right", async () => {
    await withDb("sessions_next_due_stale", async (db) => {
      const repo = await createMongoSessionRepository(db);
      const session = sessionFixture(newScope(), {}, CREATED_AT);
      await repo.insert(session);
      // The older replica canceled it and cleared its schedule, leaving the next due time as it was.
      await db.collection(SESSIONS_COLLECTION).updateOne(
        { id: session.id },
        {
          $set: { status: "CANCELED", completedAt: CREATED_AT, linkExpiryDueAt: null, reconcileAt: null },
          $inc: { version: 1 },
        },
      );

      expect(await repo.findDue(LONG_AFTER, 10)).toEqual([]);
      expect(await storedNextDue(db, session.id)).toEqual({
        nextDueAt: null,
        nextDueMinute: null,
        nextDueScheduled: false,
      });
    });
  });
});
