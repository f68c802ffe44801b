import type { SealedSecret, SecretBox } from "@gateway/platform";
import { GatewayError, isDuplicateKeyError } from "@gateway/platform";
import type { Collection, Db } from "mongodb";
import type { EndpointRepository } from "../../app/ports.js";
import { type AccountScope, modeName } from "../../domain/account-scope.js";
import type { WebhookEndpoint } from "../../domain/webhook-endpoint.js";
import { ensureIndexes, type IndexDeclaration } from "./ensure-indexes.js";
import { runMongo } from "./mongo-errors.js";

export const ENDPOINTS_COLLECTION = "endpoints";
export const ENDPOINT_VERSIONS_COLLECTION = "endpoint_versions";

/**
 * One endpoint per (merchant, mode). Secrets are sealed (AES-256-GCM), never stored in clear.
 * Nullable fields may also be missing, so they are read with `!= null`.
 */
export interface EndpointDocument {
  merchantId: string;
  livemode: boolean;
  url?: string | null;
  secret: SealedSecret;
  previousSecret?: SealedSecret | null;
  previousSecretExpiresAt?: Date | null;
  disabledAt?: Date | null;
  disabledReason?: string | null;
  /** Absent or null: the default subscriptions. */
  enabledEvents?: string[] | null;
  createdAt: Date;
  updatedAt: Date;
  /** 1 at creation, +1 per change; each change first wins its version's ticket. */
  version: number;
}

/** Ticket of one endpoint version: whoever inserts it is the one writer of that version. */
interface VersionTicket {
  merchantId: string;
  livemode: boolean;
  version: number;
  createdAt: Date;
}

const INDEXES: readonly IndexDeclaration[] = [
  { key: { merchantId: 1, livemode: 1 }, options: { name: "scope_unique", unique: true } },
];
const VERSION_INDEXES: readonly IndexDeclaration[] = [
  {
    key: { merchantId: 1, livemode: 1, version: 1 },
    options: { name: "scope_version_unique", unique: true },
  },
];

/** Rounds of read-and-try before a change gives up under contention. */
const MAX_ROUNDS = 8;

/** Authenticated with every sealed secret: it opens only on this merchant's endpoint for this mode. */
const sealContext = (scope: AccountScope) =>
  `webhook endpoint secret\n${scope.merchantId}\n${modeName(scope)}`;

const scopeFilter = (scope: AccountScope) => ({ merchantId: scope.merchantId, livemode: scope.livemode });

const sameSealed = (a: SealedSecret, b: SealedSecret) =>
  a.keyId === b.keyId && a.iv === b.iv && a.ciphertext === b.ciphertext;

/** What a change makes of the stored document (or of nothing); undefined leaves it as it is. */
/** A first endpoint document: the given URL (or none) and its first secret, enabled. */
function newEndpointDocument(
  scope: AccountScope,
  url: string | null,
  secret: SealedSecret,
  now: Date,
): Omit<EndpointDocument, "version"> {
  return {
    ...scopeFilter(scope),
    url,
    secret,
    previousSecret: null,
    previousSecretExpiresAt: null,
    disabledAt: null,
    disabledReason: null,
    createdAt: now,
    updatedAt: now,
  };
}

type Change = (current: EndpointDocument | null) => Omit<EndpointDocument, "version"> | undefined;

/**
 * Webhook endpoints in MongoDB with their secrets encrypted by `box`. Every change is a
 * read-then-write serialised by a version ticket (a unique insert): of writers that read version
 * v, only the one inserting ticket v+1 writes, the others read again. This keeps a rotation from
 * losing a secret on FerretDB 1.24 too, which does not apply concurrent updates atomically.
 */
export class MongoEndpointRepository implements EndpointRepository {
  constructor(
    private readonly collection: Collection<EndpointDocument>,
    private readonly versions: Collection<VersionTicket>,
    private readonly box: SecretBox,
  ) {}

  private fromDocument(doc: EndpointDocument): WebhookEndpoint {
    const scope = { merchantId: doc.merchantId, livemode: doc.livemode };
    const context = sealContext(scope);
    return {
      scope,
      ...(doc.url != null ? { url: doc.url } : {}),
      secret: this.box.open(doc.secret, context),
      ...(doc.previousSecret != null ? { previousSecret: this.box.open(doc.previousSecret, context) } : {}),
      ...(doc.previousSecretExpiresAt != null
        ? { previousSecretExpiresAt: doc.previousSecretExpiresAt }
        : {}),
      ...(doc.disabledAt != null ? { disabledAt: doc.disabledAt } : {}),
      ...(doc.disabledReason != null ? { disabledReason: doc.disabledReason } : {}),
      ...(doc.enabledEvents != null ? { enabledEvents: [...doc.enabledEvents] } : {}),
      createdAt: doc.createdAt,
      updatedAt: doc.updatedAt,
    };
  }

  /** Applies `change` as the one writer of the next version; returns the document before and after. */
  private async mutate(
    scope: AccountScope,
    change: Change,
  ): Promise<{ before: EndpointDocument | null; after: EndpointDocument | null }> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (round > 0) await sleep(10 * round);
      const current = await runMongo(() =>
        this.collection.findOne(scopeFilter(scope), { projection: { _id: 0 } }),
      );
      const next = change(current);
      if (!next) return { before: current, after: current };
      if (!current) {
        const created: EndpointDocument = { ...next, ...scopeFilter(scope), version: 1 };
        try {
          await runMongo(() => this.collection.insertOne({ ...created }));
          return { before: null, after: created };
        } catch (err) {
          if (isDuplicateKeyError(err)) continue; // created meanwhile: change that one
          throw err;
        }
      }
      const version = current.version + 1;
      try {
        await runMongo(() =>
          this.versions.insertOne({ ...scopeFilter(scope), version, createdAt: new Date() }),
        );
      } catch (err) {
        if (isDuplicateKeyError(err)) continue; // someone else writes this version: read it and retry
        throw err;
      }
      const updated: EndpointDocument = { ...next, ...scopeFilter(scope), version };
      const written = await runMongo(() =>
        this.collection.replaceOne({ ...scopeFilter(scope), version: current.version }, updated),
      );
      if (written.matchedCount === 1) return { before: current, after: updated };
    }
    throw new GatewayError(
      "SERVICE_UNAVAILABLE",
      "The webhook endpoint is being changed by several calls at once; try again.",
    );
  }

  async find(scope: AccountScope): Promise<WebhookEndpoint | undefined> {
    const doc = await runMongo(() => this.collection.findOne(scopeFilter(scope)));
    return doc ? this.fromDocument(doc) : undefined;
  }

  async setUrl(
    scope: AccountScope,
    url: string,
    newSecret: string,
    now: Date,
  ): Promise<{ endpoint: WebhookEndpoint; secretCreated: boolean }> {
    const sealed = this.box.seal(newSecret, sealContext(scope));
    const { after } = await this.mutate(scope, (current) =>
      current
        ? { ...current, url, disabledAt: null, disabledReason: null, updatedAt: now }
        : newEndpointDocument(scope, url, sealed, now),
    );
    if (!after) throw new Error("setting the endpoint URL left no endpoint");
    return { endpoint: this.fromDocument(after), secretCreated: sameSealed(after.secret, sealed) };
  }

  async setSubscriptions(
    scope: AccountScope,
    events: string[],
    newSecret: string,
    now: Date,
  ): Promise<WebhookEndpoint> {
    const sealed = this.box.seal(newSecret, sealContext(scope));
    const { after } = await this.mutate(scope, (current) => ({
      ...(current ?? newEndpointDocument(scope, null, sealed, now)),
      enabledEvents: [...events],
      updatedAt: now,
    }));
    if (!after) throw new Error("setting the subscriptions left no endpoint");
    return this.fromDocument(after);
  }

  async rotateSecret(
    scope: AccountScope,
    newSecret: string,
    previousExpiresAt: Date,
    now: Date,
  ): Promise<{ endpoint: WebhookEndpoint; rotated: boolean }> {
    const sealed = this.box.seal(newSecret, sealContext(scope));
    // The sealed current secret moves to `previousSecret` as is: same record, same context.
    const { before, after } = await this.mutate(scope, (current) =>
      current
        ? {
            ...current,
            secret: sealed,
            previousSecret: current.secret,
            previousSecretExpiresAt: previousExpiresAt,
            updatedAt: now,
          }
        : newEndpointDocument(scope, null, sealed, now),
    );
    if (!after) throw new Error("rotating the secret left no endpoint");
    return { endpoint: this.fromDocument(after), rotated: before !== null };
  }

  async ensureSecret(scope: AccountScope, newSecret: string, now: Date): Promise<WebhookEndpoint> {
    const sealed = this.box.seal(newSecret, sealContext(scope));
    // Created by a unique insert (mutate's first-write path); an existing endpoint is left as is.
    const { after } = await this.mutate(scope, (current) =>
      current ? undefined : newEndpointDocument(scope, null, sealed, now),
    );
    if (!after) throw new Error("ensuring the secret left no endpoint");
    return this.fromDocument(after);
  }

  async disable(scope: AccountScope, url: string, at: Date, reason: string): Promise<boolean> {
    const { before, after } = await this.mutate(scope, (current) =>
      current && current.url === url && current.disabledAt == null
        ? { ...current, disabledAt: at, disabledReason: reason, updatedAt: at }
        : undefined,
    );
    return before !== after;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function createMongoEndpointRepository(
  db: Db,
  box: SecretBox,
): Promise<MongoEndpointRepository> {
  const collection = db.collection<EndpointDocument>(ENDPOINTS_COLLECTION);
  const versions = db.collection<VersionTicket>(ENDPOINT_VERSIONS_COLLECTION);
  await ensureIndexes(collection, INDEXES);
  await ensureIndexes(versions, VERSION_INDEXES);
  return new MongoEndpointRepository(collection, versions, box);
}
