import type { Document } from "mongodb";
import { isDuplicateKeyError } from "./mongo.js";

/** What one insert did: stored, or refused because a document with its unique key is there. */
export type BatchedInsertOutcome = "inserted" | "already_exists";

/** The part of a driver collection the batcher uses. */
export interface InsertManyTarget<T extends Document> {
  insertMany(docs: T[], options: { ordered: false }): Promise<unknown>;
}

/** A per-document error of an unordered insertMany, as the driver reports it. */
interface WriteErrorLike {
  index: number;
  code?: number;
  errmsg?: string;
}

/**
 * The largest batch sent as one command. Bounded so one command's size and the time one
 * document waits behind the others stay small; a burst larger than this goes out as several.
 */
export const MAX_INSERT_BATCH = 64;

/**
 * Inserts that arrive in the same turn of the event loop go to the database as one unordered
 * `insertMany`, and each caller learns only its own document's outcome, exactly as if it had run
 * `insertOne`: "inserted", "already_exists" on a duplicate unique key, or the error for its
 * document alone. An error that is not about single documents (the database is unreachable)
 * fails every insert of the batch, as it would have failed each `insertOne`.
 *
 * Nothing waits for a batch to fill: the batch leaves on the next turn (`setImmediate`), so a
 * lone insert costs no added latency, while concurrent ones (events consumed together, creates
 * arriving together) share one round trip (docs/decisions.md#concurrent-inserts-share-one-command).
 * `run` wraps the command (the service's database error mapping).
 */
export function batchedInserts<T extends Document>(
  target: InsertManyTarget<T>,
  run: <R>(operation: () => Promise<R>) => Promise<R> = (operation) => operation(),
): (doc: T) => Promise<BatchedInsertOutcome> {
  interface Waiting {
    doc: T;
    resolve(outcome: BatchedInsertOutcome): void;
    reject(err: unknown): void;
  }
  let waiting: Waiting[] = [];

  const flush = (): void => {
    const all = waiting;
    waiting = [];
    for (let start = 0; start < all.length; start += MAX_INSERT_BATCH)
      void send(all.slice(start, start + MAX_INSERT_BATCH));
  };

  const send = async (batch: Waiting[]): Promise<void> => {
    let refused: WriteErrorLike[] = [];
    try {
      await run(() =>
        target.insertMany(
          batch.map((w) => w.doc),
          { ordered: false },
        ),
      );
    } catch (err) {
      const perDocument = writeErrorsOf(err);
      if (!perDocument) {
        for (const w of batch) w.reject(err);
        return;
      }
      refused = perDocument;
    }
    const byIndex = new Map(refused.map((e) => [e.index, e]));
    batch.forEach((w, index) => {
      const error = byIndex.get(index);
      if (!error) w.resolve("inserted");
      else if (isDuplicateKeyError(error)) w.resolve("already_exists");
      else w.reject(Object.assign(new Error(error.errmsg ?? "insert refused"), { code: error.code }));
    });
  };

  return (doc) =>
    new Promise<BatchedInsertOutcome>((resolve, reject) => {
      if (waiting.length === 0) setImmediate(flush);
      waiting.push({ doc, resolve, reject });
    });
}

/**
 * The per-document errors of a failed unordered insertMany (the driver's MongoBulkWriteError),
 * or undefined when the failure was not about single documents.
 */
function writeErrorsOf(err: unknown): WriteErrorLike[] | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const raw = (err as { writeErrors?: unknown }).writeErrors;
  const list = Array.isArray(raw) ? raw : raw && typeof raw === "object" ? [raw] : undefined;
  if (!list || list.length === 0) return undefined;
  const errors: WriteErrorLike[] = [];
  for (const e of list) {
    const index = (e as { index?: unknown }).index;
    if (typeof index !== "number") return undefined;
    const code = (e as { code?: unknown }).code;
    const errmsg = (e as { errmsg?: unknown }).errmsg;
    errors.push({
      index,
      ...(typeof code === "number" ? { code } : {}),
      ...(typeof errmsg === "string" ? { errmsg } : {}),
    });
  }
  return errors;
}
