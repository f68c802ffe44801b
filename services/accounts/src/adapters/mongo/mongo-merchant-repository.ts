import { isDuplicateKeyError } from "@gateway/platform";
import type { Collection, Db } from "mongodb";
import type { InsertOutcome, MerchantRepository } from "../../app/ports.js";
import type { Merchant } from "../../domain/merchant.js";
import { type MerchantDocument, merchantsCollection } from "./accounts-collections.js";
import { runMongo } from "./mongo-errors.js";

export class MongoMerchantRepository implements MerchantRepository {
  private readonly merchants: Collection<MerchantDocument>;

  constructor(db: Db) {
    this.merchants = merchantsCollection(db);
  }

  insert(merchant: Merchant): Promise<InsertOutcome> {
    return runMongo(async () => {
      try {
        await this.merchants.insertOne(toDocument(merchant));
        return "inserted";
      } catch (err) {
        if (isDuplicateKeyError(err)) return "already_exists";
        throw err;
      }
    });
  }

  findById(id: string): Promise<Merchant | undefined> {
    return runMongo(async () => {
      const doc = await this.merchants.findOne({ _id: id });
      return doc ? fromDocument(doc) : undefined;
    });
  }

  markVerified(id: string): Promise<Merchant | undefined> {
    return runMongo(async () => {
      const doc = await this.merchants.findOneAndUpdate(
        { _id: id },
        { $set: { verified: true } },
        { returnDocument: "after" },
      );
      return doc ? fromDocument(doc) : undefined;
    });
  }
}

function toDocument(merchant: Merchant): MerchantDocument {
  return {
    _id: merchant.id,
    name: merchant.name,
    verified: merchant.verified,
    createdAt: merchant.createdAt,
  };
}

function fromDocument(doc: MerchantDocument): Merchant {
  return { id: doc._id, name: doc.name, verified: doc.verified, createdAt: doc.createdAt };
}
