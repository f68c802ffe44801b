// Pre-stores sessions for the growth table of bench/http-scale-bench.ts: clones of one session the
// gateway stored itself (read back from its `sessions` collection, so every field has the shape
// and BSON type the service writes), inserted in bulk. Each clone gets what the unique indexes of
// services/sessions/src/adapters/mongo/mongo-session-repository.ts need fresh: id, merchant
// reference, order number and checkout link token; its outbox is empty (nothing to publish).
import { newId, randomBase62 } from "@gateway/platform";
import type { Db, Document } from "mongodb";

const SESSIONS_COLLECTION = "sessions";
const BATCH = 1000;

export interface SessionCloner {
  /** Adds `count` clones; resolves with the ids of a sample of them (for GETs). */
  add(count: number): Promise<string[]>;
  /** Documents in the collection now. */
  count(): Promise<number>;
}

/** `db` must come from a client opened with `useBigInt64: true`, so amounts stay Int64. */
export async function sessionCloner(db: Db, templateId: string): Promise<SessionCloner> {
  const sessions = db.collection(SESSIONS_COLLECTION);
  const template = await sessions.findOne({ id: templateId }, { projection: { _id: 0 } });
  if (!template) throw new Error(`session ${templateId} is not in ${db.databaseName}.${SESSIONS_COLLECTION}`);
  const tag = randomBase62(4);
  let made = 0;
  return {
    async add(count) {
      const sample: string[] = [];
      for (let done = 0; done < count; ) {
        const batch: Document[] = [];
        for (; batch.length < BATCH && done < count; done++) batch.push(clone(template, tag, made++));
        await sessions.insertMany(batch, { ordered: false });
        sample.push(...batch.slice(0, 50).map((d) => d.id as string));
      }
      return sample;
    },
    count: () => sessions.countDocuments(),
  };
}

function clone(template: Document, tag: string, n: number): Document {
  const token = randomBase62(32);
  const links = (template.checkoutLinks as Document[]).map((l) => ({ ...l, token }));
  return {
    ...template,
    id: newId("ps"),
    merchantReference: `bench-clone-${tag}-${n}`,
    // Real ones are PG- and 6 characters; BC- and 7 base-36 digits never collide with them.
    orderNumber: `BC-${n.toString(36).toUpperCase().padStart(7, "0")}`,
    checkoutLinks: links,
    checkoutTokens: [token],
    outbox: [],
    outboxPending: 0,
    outboxUnpublished: false,
    outboxRevision: 0,
  };
}
