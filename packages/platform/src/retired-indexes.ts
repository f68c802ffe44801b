import type { Collection, Document } from "mongodb";

/** The server's code for dropping an index that is not there (IndexNotFound). */
const INDEX_NOT_FOUND = 27;

/**
 * Drops the indexes named in `names` that `collection` still has: indexes an earlier version
 * created and no query reads any more. Every insert, and every update of an indexed field, pays
 * for each index, so a store stops asking for one when its last query goes and drops it at
 * start from a database an earlier version set up
 * (docs/decisions.md#an-index-no-query-reads-is-dropped). By name only: an index made by hand
 * under another name stays. Replicas starting together may both try; the one that finds the
 * index gone already has nothing to do. Call it after the collection's indexes are created, so
 * the collection exists.
 */
export async function dropRetiredIndexes<T extends Document>(
  collection: Collection<T>,
  names: readonly string[],
): Promise<void> {
  const present = new Set((await collection.listIndexes().toArray()).map((index) => String(index.name)));
  for (const name of names) {
    if (!present.has(name)) continue;
    try {
      await collection.dropIndex(name);
    } catch (err) {
      if ((err as { code?: number }).code !== INDEX_NOT_FOUND) throw err;
    }
  }
}
