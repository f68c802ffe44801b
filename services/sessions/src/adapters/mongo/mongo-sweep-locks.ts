import { isDuplicateKeyError } from "@gateway/platform";
import type { Collection, Db } from "mongodb";
import type { SweepLocks } from "../../app/ports.js";
import { runMongo } from "./mongo-errors.js";

export const SWEEP_LOCKS_COLLECTION = "sweep_locks";

interface LockDocument {
  key: string;
  holder: string;
  until: Date;
}

/**
 * Sweep claims as documents under a unique key. Taking a claim is an insert: the unique index
 * decides between replicas atomically (FerretDB 1.24 does not isolate concurrent conditional
 * updates, but it does enforce unique indexes). A claim that ran out is deleted (only that
 * very claim: same holder and time) and the insert races again.
 */
export class MongoSweepLocks implements SweepLocks {
  constructor(private readonly collection: Collection<LockDocument>) {}

  async acquire(key: string, holder: string, until: Date, now: Date): Promise<boolean> {
    if (await this.insert({ key, holder, until })) return true;
    const held = await runMongo(() => this.collection.findOne({ key }));
    if (held && held.until.getTime() > now.getTime()) return false;
    if (held)
      await runMongo(() => this.collection.deleteOne({ key, holder: held.holder, until: held.until }));
    return this.insert({ key, holder, until });
  }

  async release(key: string, holder: string): Promise<void> {
    await runMongo(() => this.collection.deleteOne({ key, holder }));
  }

  private async insert(lock: LockDocument): Promise<boolean> {
    try {
      await runMongo(() => this.collection.insertOne({ ...lock }));
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }
}

export async function createMongoSweepLocks(db: Db): Promise<SweepLocks> {
  const collection = db.collection<LockDocument>(SWEEP_LOCKS_COLLECTION);
  await runMongo(() => collection.createIndex({ key: 1 }, { name: "key_unique", unique: true }));
  return new MongoSweepLocks(collection);
}
