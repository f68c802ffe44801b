import type { Db } from "mongodb";
import {
  apiKeysCollection,
  exchangeRateHistoryCollection,
  exchangeRatesCollection,
  terminalsCollection,
} from "./accounts-collections.js";
import { auditLogCollection } from "./mongo-audit-log-repository.js";
import { businessVerificationsCollection } from "./mongo-business-verification-repository.js";
import { runMongo } from "./mongo-errors.js";

/**
 * Creates the accounts indexes; creating an index that already exists with the same spec is a
 * no-op, so this runs on every start. Merchants and fee plans need none beyond `_id`.
 */
export async function ensureAccountsIndexes(db: Db): Promise<void> {
  await runMongo(async () => {
    // Authenticate finds a key by its lookup id; unique so a lookup id names exactly one key.
    await apiKeysCollection(db).createIndex({ lookupId: 1 }, { name: "lookupId_unique", unique: true });
    await apiKeysCollection(db).createIndex(
      { merchantId: 1, createdAt: -1 },
      { name: "merchantId_createdAt" },
    );
    await exchangeRatesCollection(db).createIndex(
      { merchantId: 1, currency: 1 },
      { name: "merchantId_currency_unique", unique: true },
    );
    // The history pages newest first, for the whole merchant or for one currency.
    await exchangeRateHistoryCollection(db).createIndex(
      { merchantId: 1, updatedAt: -1, _id: -1 },
      { name: "merchantId_updatedAt" },
    );
    await exchangeRateHistoryCollection(db).createIndex(
      { merchantId: 1, currency: 1, updatedAt: -1, _id: -1 },
      { name: "merchantId_currency_updatedAt" },
    );
    // The audit log pages newest first per merchant; an entry's id is its cursor.
    await auditLogCollection(db).createIndex(
      { merchantId: 1, createdAt: -1, id: -1 },
      { name: "merchantId_createdAt_id" },
    );
    await auditLogCollection(db).createIndex(
      { merchantId: 1, id: 1 },
      { name: "merchantId_id_unique", unique: true },
    );
    // The operator's queue: pending verifications, oldest first.
    await businessVerificationsCollection(db).createIndex(
      { status: 1, submittedAt: 1, _id: 1 },
      { name: "status_submittedAt" },
    );
    await terminalsCollection(db).createIndex(
      { merchantId: 1, livemode: 1 },
      { name: "merchantId_livemode_unique", unique: true },
    );
  });
}
