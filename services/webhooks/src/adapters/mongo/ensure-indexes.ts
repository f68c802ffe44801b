import type { Collection, CreateIndexesOptions, Document, IndexSpecification } from "mongodb";
import { runMongo } from "./mongo-errors.js";

export interface IndexDeclaration {
  key: IndexSpecification;
  options: CreateIndexesOptions & { name: string };
}

/**
 * Creates indexes one by one at every start: creating an existing index with the same spec is
 * a no-op (a batched createIndexes repeating existing indexes makes FerretDB 1.24 drop the
 * connection, so no batch).
 */
export async function ensureIndexes<T extends Document>(
  collection: Collection<T>,
  indexes: readonly IndexDeclaration[],
): Promise<void> {
  for (const { key, options } of indexes) await runMongo(() => collection.createIndex(key, options));
}
