import { setTimeout as sleep } from "node:timers/promises";
import { minorFromStored } from "@gateway/money";
import { GatewayError, isDuplicateKeyError } from "@gateway/platform";
import type { Collection, Db } from "mongodb";
import type { BalanceLedger } from "../../app/ports.js";
import { runMongo } from "./mongo-errors.js";

export const RESERVATIONS_COLLECTION = "refund_reservations";

/**
 * One link of a session's reservation chain. Never updated, never deleted: only inserted.
 *
 * Why a chain of inserts: FerretDB 1.24 does not apply concurrent conditional updates
 * atomically (two "$inc if balance allows" can both pass), but it does enforce unique indexes
 * on insert. So each session's refunded total lives in a chain of documents numbered
 * 1, 2, 3… by `slot`, unique per (sessionId, slot). A writer reads the highest slot n and its
 * total, decides its amount from that total, and inserts slot n + 1 with the new total. Only one
 * insert of slot n + 1 can win; the losers read the chain again and decide again from the new
 * total. Slot n + 1's total is therefore always computed from slot n's, which never changes, so
 * the chain is a serial history and no total can pass what the rule allowed, across any number
 * of replicas. `entryKey` (unique) makes each refund's take and release happen at most once.
 */
interface ReservationDocument {
  sessionId: string;
  slot: number;
  entryKey: string;
  refundId: string;
  kind: "take" | "release";
  amountMinor: bigint;
  /** The session's refunded total once this entry is applied. */
  refundedAfterMinor: bigint;
  createdAt: Date;
}

/** Each round loses only to a writer that succeeded, so N concurrent writers finish within N rounds. */
const MAX_ROUNDS = 200;

const INDEXES = [
  { key: { sessionId: 1, slot: 1 }, options: { name: "session_slot_unique", unique: true } },
  { key: { entryKey: 1 }, options: { name: "entry_key_unique", unique: true } },
] as const;

export class MongoBalanceLedger implements BalanceLedger {
  constructor(private readonly collection: Collection<ReservationDocument>) {}

  async refundedMinor(sessionId: string): Promise<bigint> {
    return (await this.head(sessionId)).refundedMinor;
  }

  async reserve(
    sessionId: string,
    refundId: string,
    decide: (refundedMinor: bigint) => bigint,
  ): Promise<bigint> {
    const entryKey = `${refundId}:take`;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const earlier = await runMongo(() => this.collection.findOne({ entryKey }));
      if (earlier !== null) return minorFromStored(earlier.amountMinor);
      const head = await this.head(sessionId);
      const amountMinor = decide(head.refundedMinor);
      const inserted = await this.append(sessionId, head, {
        entryKey,
        refundId,
        kind: "take",
        amountMinor,
        after: head.refundedMinor + amountMinor,
      });
      if (inserted) return amountMinor;
      await backOff(round);
    }
    throw busy();
  }

  async release(sessionId: string, refundId: string): Promise<void> {
    const taken = await runMongo(() => this.collection.findOne({ entryKey: `${refundId}:take` }));
    if (taken === null) return;
    const entryKey = `${refundId}:release`;
    const amountMinor = minorFromStored(taken.amountMinor);
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if ((await runMongo(() => this.collection.findOne({ entryKey }))) !== null) return;
      const head = await this.head(sessionId);
      const inserted = await this.append(sessionId, head, {
        entryKey,
        refundId,
        kind: "release",
        amountMinor,
        after: head.refundedMinor - amountMinor,
      });
      if (inserted) return;
      await backOff(round);
    }
    throw busy();
  }

  private async head(sessionId: string): Promise<{ slot: number; refundedMinor: bigint }> {
    const [last] = await runMongo(() =>
      this.collection.find({ sessionId }).sort({ slot: -1 }).limit(1).toArray(),
    );
    return last === undefined
      ? { slot: 0, refundedMinor: 0n }
      : { slot: last.slot, refundedMinor: minorFromStored(last.refundedAfterMinor) };
  }

  /** Inserts the link after `head`; false when another writer took that slot (or this entry) first. */
  private async append(
    sessionId: string,
    head: { slot: number },
    e: { entryKey: string; refundId: string; kind: "take" | "release"; amountMinor: bigint; after: bigint },
  ): Promise<boolean> {
    const doc: ReservationDocument = {
      sessionId,
      slot: head.slot + 1,
      entryKey: e.entryKey,
      refundId: e.refundId,
      kind: e.kind,
      amountMinor: e.amountMinor,
      refundedAfterMinor: e.after,
      createdAt: new Date(),
    };
    try {
      await runMongo(() => this.collection.insertOne(doc));
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }
}

/** A little random wait so that losers of one slot do not all collide again on the next. */
async function backOff(round: number): Promise<void> {
  await sleep(Math.random() * Math.min(2 + round, 20));
}

function busy(): GatewayError {
  return new GatewayError("SERVICE_UNAVAILABLE", "The session's refund balance is busy; retry the refund.");
}

export async function createMongoBalanceLedger(db: Db): Promise<MongoBalanceLedger> {
  const collection = db.collection<ReservationDocument>(RESERVATIONS_COLLECTION);
  for (const { key, options } of INDEXES) await runMongo(() => collection.createIndex(key, options));
  return new MongoBalanceLedger(collection);
}
