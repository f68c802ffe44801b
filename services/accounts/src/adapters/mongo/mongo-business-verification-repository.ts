import type { Collection, Db } from "mongodb";
import type { BusinessVerificationRepository } from "../../app/ports.js";
import type {
  BusinessDetails,
  BusinessVerification,
  VerificationStatus,
} from "../../domain/business-verification.js";
import { runMongo } from "./mongo-errors.js";

export const BUSINESS_VERIFICATIONS_COLLECTION = "business_verifications";

/** One document per merchant (`_id` = merchant id). */
export interface BusinessVerificationDocument {
  _id: string;
  status: VerificationStatus;
  details: BusinessDetails;
  submittedAt: Date;
  decidedAt?: Date;
  reason?: string;
}

export function businessVerificationsCollection(db: Db): Collection<BusinessVerificationDocument> {
  return db.collection<BusinessVerificationDocument>(BUSINESS_VERIFICATIONS_COLLECTION);
}

export class MongoBusinessVerificationRepository implements BusinessVerificationRepository {
  private readonly verifications: Collection<BusinessVerificationDocument>;

  constructor(db: Db) {
    this.verifications = businessVerificationsCollection(db);
  }

  save(verification: BusinessVerification): Promise<void> {
    return runMongo(async () => {
      const { merchantId, ...rest } = verification;
      await this.verifications.replaceOne({ _id: merchantId }, rest, { upsert: true });
    });
  }

  find(merchantId: string): Promise<BusinessVerification | undefined> {
    return runMongo(async () => {
      const doc = await this.verifications.findOne({ _id: merchantId });
      return doc ? fromDocument(doc) : undefined;
    });
  }

  listPending(limit: number): Promise<BusinessVerification[]> {
    return runMongo(async () => {
      const docs = await this.verifications
        .find({ status: "pending" })
        .sort({ submittedAt: 1, _id: 1 })
        .limit(limit)
        .toArray();
      return docs.map(fromDocument);
    });
  }

  decide(
    merchantId: string,
    submittedAt: Date,
    decision: { status: "approved" | "rejected"; decidedAt: Date; reason?: string },
  ): Promise<BusinessVerification | undefined> {
    return runMongo(async () => {
      // One conditional update: a decision lands only on the submission the operator read.
      const doc = await this.verifications.findOneAndUpdate(
        { _id: merchantId, status: "pending", submittedAt },
        decision.reason === undefined
          ? { $set: { status: decision.status, decidedAt: decision.decidedAt }, $unset: { reason: "" } }
          : { $set: { status: decision.status, decidedAt: decision.decidedAt, reason: decision.reason } },
        { returnDocument: "after" },
      );
      return doc ? fromDocument(doc) : undefined;
    });
  }
}

function fromDocument(doc: BusinessVerificationDocument): BusinessVerification {
  const verification: BusinessVerification = {
    merchantId: doc._id,
    status: doc.status,
    details: { ...doc.details },
    submittedAt: doc.submittedAt,
  };
  if (doc.decidedAt) verification.decidedAt = doc.decidedAt;
  if (doc.reason !== undefined) verification.reason = doc.reason;
  return verification;
}
