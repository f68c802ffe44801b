import { batchedInserts } from "@gateway/platform";
import type { Collection, Db } from "mongodb";
import type { InsertOutcome, WebhookEventRepository } from "../../app/ports.js";
import type { WebhookEvent } from "../../domain/webhook-event.js";
import { ensureIndexes, type IndexDeclaration } from "./ensure-indexes.js";
import { runMongo } from "./mongo-errors.js";

export const EVENTS_COLLECTION = "events";

export interface WebhookEventDocument {
  id: string;
  merchantId: string;
  livemode: boolean;
  sessionId: string;
  type: WebhookEvent["type"];
  /** null for refund events, which have no sequence. */
  sequence: number | null;
  occurredAt: Date;
  sessionWebhookUrl: string | null;
  /** The envelope's JSON text, sent as is on every attempt. */
  body: string;
  /** traceparent / tracestate of the publisher (keys without dots). */
  traceContext?: Record<string, string> | null;
  receivedAt: Date;
}

const INDEXES: readonly IndexDeclaration[] = [
  { key: { id: 1 }, options: { name: "id_unique", unique: true } },
];

function fromDocument(doc: WebhookEventDocument): WebhookEvent {
  return {
    id: doc.id,
    scope: { merchantId: doc.merchantId, livemode: doc.livemode },
    sessionId: doc.sessionId,
    type: doc.type,
    ...(doc.sequence != null ? { sequence: doc.sequence } : {}),
    occurredAt: doc.occurredAt,
    ...(doc.sessionWebhookUrl != null ? { sessionWebhookUrl: doc.sessionWebhookUrl } : {}),
    body: doc.body,
    ...(doc.traceContext != null ? { traceContext: doc.traceContext } : {}),
    receivedAt: doc.receivedAt,
  };
}

/** Received events in MongoDB; the unique id index makes taking in an event idempotent. */
export class MongoWebhookEventRepository implements WebhookEventRepository {
  /** Events consumed together are stored with one command (docs/decisions.md#concurrent-inserts-share-one-command). */
  private readonly insertOne: (doc: WebhookEventDocument) => Promise<InsertOutcome>;

  constructor(private readonly collection: Collection<WebhookEventDocument>) {
    this.insertOne = batchedInserts(collection, runMongo);
  }

  async insert(event: WebhookEvent): Promise<InsertOutcome> {
    const doc: WebhookEventDocument = {
      id: event.id,
      merchantId: event.scope.merchantId,
      livemode: event.scope.livemode,
      sessionId: event.sessionId,
      type: event.type,
      sequence: event.sequence ?? null,
      occurredAt: event.occurredAt,
      sessionWebhookUrl: event.sessionWebhookUrl ?? null,
      body: event.body,
      traceContext: event.traceContext ?? null,
      receivedAt: event.receivedAt,
    };
    return this.insertOne(doc);
  }

  async findById(id: string): Promise<WebhookEvent | undefined> {
    const doc = await runMongo(() => this.collection.findOne({ id }));
    return doc ? fromDocument(doc) : undefined;
  }
}

export async function createMongoWebhookEventRepository(db: Db): Promise<MongoWebhookEventRepository> {
  const collection = db.collection<WebhookEventDocument>(EVENTS_COLLECTION);
  await ensureIndexes(collection, INDEXES);
  return new MongoWebhookEventRepository(collection);
}
