import { type Db, MongoClient, type MongoClientOptions } from "mongodb";
import { testServers } from "../test-servers.js";
import { uniqueDbName } from "./unique-db-name.js";

export interface TestDb {
  db: Db;
  client: MongoClient;
  /** Drops the database and closes the client; call it in afterAll. */
  drop(): Promise<void>;
}

/** A connected client and a database of its own (`uniqueDbName(prefix)`) on the test server. */
export async function createTestDb(prefix: string, clientOptions: MongoClientOptions = {}): Promise<TestDb> {
  const name = uniqueDbName(prefix);
  const client = new MongoClient(testServers().mongodbUrl, {
    serverSelectionTimeoutMS: 5_000,
    connectTimeoutMS: 5_000,
    retryWrites: false, // FerretDB has no retryable writes.
    ...clientOptions,
  });
  await client.connect();
  const db = client.db(name);
  return {
    db,
    client,
    async drop() {
      try {
        await db.dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
}
