import { isDuplicateKeyError, type SecretBox } from "@gateway/platform";
import type { Collection, Db } from "mongodb";
import { type ApiKeyRepository, type InsertOutcome, MAX_LISTED_API_KEYS } from "../../app/ports.js";
import { type ApiKey, apiKeySecretContext } from "../../domain/api-key.js";
import { type ApiKeyDocument, apiKeysCollection } from "./accounts-collections.js";
import { runMongo } from "./mongo-errors.js";

export class MongoApiKeyRepository implements ApiKeyRepository {
  private readonly keys: Collection<ApiKeyDocument>;

  constructor(
    db: Db,
    private readonly secrets: SecretBox,
  ) {
    this.keys = apiKeysCollection(db);
  }

  insert(key: ApiKey, secret?: string): Promise<InsertOutcome> {
    return runMongo(async () => {
      const doc = toDocument(key);
      if (secret !== undefined) doc.sealedSecret = this.secrets.seal(secret, apiKeySecretContext(key.id));
      try {
        await this.keys.insertOne(doc);
        return "inserted";
      } catch (err) {
        // Either unique key (_id or lookupId): the key was not stored.
        if (isDuplicateKeyError(err)) return "already_exists";
        throw err;
      }
    });
  }

  findById(id: string): Promise<ApiKey | undefined> {
    return runMongo(async () => {
      const doc = await this.keys.findOne({ _id: id });
      return doc ? fromDocument(doc) : undefined;
    });
  }

  findByLookupId(lookupId: string): Promise<ApiKey | undefined> {
    return runMongo(async () => {
      const doc = await this.keys.findOne({ lookupId });
      return doc ? fromDocument(doc) : undefined;
    });
  }

  listByMerchant(merchantId: string): Promise<ApiKey[]> {
    return runMongo(async () => {
      const docs = await this.keys
        .find({ merchantId })
        .sort({ createdAt: -1, _id: -1 })
        .limit(MAX_LISTED_API_KEYS)
        .toArray();
      return docs.map(fromDocument);
    });
  }

  openSecret(id: string): Promise<string | undefined> {
    return runMongo(async () => {
      const doc = await this.keys.findOne({ _id: id }, { projection: { sealedSecret: 1 } });
      return doc?.sealedSecret && this.secrets.open(doc.sealedSecret, apiKeySecretContext(id));
    });
  }

  expireBy(id: string, at: Date): Promise<ApiKey | undefined> {
    return runMongo(async () => {
      // Single-document conditional update: only an active key without an earlier expiry changes.
      await this.keys.updateOne(
        {
          _id: id,
          revokedAt: { $exists: false },
          $or: [{ expiresAt: { $exists: false } }, { expiresAt: { $gt: at } }],
        },
        { $set: { expiresAt: at } },
      );
      const doc = await this.keys.findOne({ _id: id });
      return doc ? fromDocument(doc) : undefined;
    });
  }

  recordUse(id: string, at: Date): Promise<void> {
    return runMongo(async () => {
      await this.keys.updateOne({ _id: id }, { $set: { lastUsedAt: at } });
    });
  }

  markRevoked(id: string, at: Date): Promise<ApiKey | undefined> {
    return runMongo(async () => {
      // Only an active key gets a revocation time, so repeating a revoke keeps the first one.
      const revoked = await this.keys.findOneAndUpdate(
        { _id: id, revokedAt: { $exists: false } },
        { $set: { revokedAt: at } },
        { returnDocument: "after" },
      );
      if (revoked) return fromDocument(revoked);
      const doc = await this.keys.findOne({ _id: id });
      return doc ? fromDocument(doc) : undefined;
    });
  }
}

function toDocument(key: ApiKey): ApiKeyDocument {
  const doc: ApiKeyDocument = {
    _id: key.id,
    merchantId: key.merchantId,
    livemode: key.livemode,
    lookupId: key.lookupId,
    prefix: key.prefix,
    hash: key.hash,
    createdAt: key.createdAt,
  };
  if (key.expiresAt) doc.expiresAt = key.expiresAt;
  if (key.revokedAt) doc.revokedAt = key.revokedAt;
  if (key.lastUsedAt) doc.lastUsedAt = key.lastUsedAt;
  return doc;
}

function fromDocument(doc: ApiKeyDocument): ApiKey {
  const key: ApiKey = {
    id: doc._id,
    merchantId: doc.merchantId,
    livemode: doc.livemode,
    lookupId: doc.lookupId,
    prefix: doc.prefix,
    hash: doc.hash,
    createdAt: doc.createdAt,
    retrievable: doc.sealedSecret !== undefined,
  };
  if (doc.expiresAt) key.expiresAt = doc.expiresAt;
  if (doc.revokedAt) key.revokedAt = doc.revokedAt;
  if (doc.lastUsedAt) key.lastUsedAt = doc.lastUsedAt;
  return key;
}
