import { randomBytes } from "node:crypto";
import { connectMongo } from "@gateway/platform";
import type { Db, MongoClient } from "mongodb";

export interface MongoTestDatabase {
  client: MongoClient;
  db: Db;
  /** Drops the database and closes the client. */
  dispose(): Promise<void>;
}

/** A fresh, uniquely named database on the server of MONGODB_URL, for one test file. */
export async function openMongoTestDatabase(area: string): Promise<MongoTestDatabase> {
  const url = process.env.MONGODB_URL;
  if (!url) throw new Error("MONGODB_URL must point at a MongoDB wire server for integration tests");
  const client = await connectMongo(url, `test-${area}`);
  const db = client.db(`test_${area}_${randomBytes(6).toString("hex")}`);
  return {
    client,
    db,
    async dispose() {
      try {
        await db.dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
}
