import type { Collection, Document, Filter } from "mongodb";

/**
 * Documents that carry an event outbox (sessions, refunds) also carry `outboxUnpublished`: true
 * while any entry waits for the relay, written in the same update as the entries and their count.
 * The relay's look is an equality on it, which MongoDB answers from an index and FerretDB pushes
 * down to an index too; the count's `$ne: 0` it replaces was a table scan on FerretDB
 * (docs/decisions.md#the-relay-looks-for-a-flag).
 */
export interface OutboxFlagFields {
  outboxUnpublished?: boolean;
}

/** The relay's look: documents with unpublished outbox entries. */
export const UNPUBLISHED_OUTBOX = { outboxUnpublished: true } as const;

/** The index behind the look, oldest change first. */
export const OUTBOX_UNPUBLISHED_INDEX = {
  key: { outboxUnpublished: 1, updatedAt: 1 },
  options: { name: "outbox_unpublished" },
} as const;

/**
 * Documents stored before the flag existed get it once, from their pending count (later starts
 * find nothing to do). Runs at start only, so its scans are not per-look work.
 */
export async function backfillOutboxFlag<T extends Document>(collection: Collection<T>): Promise<void> {
  const withoutFlag = { outboxUnpublished: { $exists: false } };
  await collection.updateMany(
    { ...withoutFlag, outboxPending: { $exists: true, $ne: 0 } } as Filter<T>,
    {
      $set: { outboxUnpublished: true },
    } as never,
  );
  await collection.updateMany(withoutFlag as Filter<T>, { $set: { outboxUnpublished: false } } as never);
}

/** The count and the flag for an outbox as it is about to be written back. */
export function outboxPendingFields(entries: ReadonlyArray<{ publishedAt: Date | null }>): {
  outboxPending: number;
  outboxUnpublished: boolean;
} {
  const pending = entries.filter((e) => e.publishedAt === null).length;
  return { outboxPending: pending, outboxUnpublished: pending > 0 };
}
