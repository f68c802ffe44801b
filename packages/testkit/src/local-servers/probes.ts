import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { MongoClient } from "mongodb";

/** Resolves when a MongoDB wire server at `url` answers `ping`; each attempt gives up after ~1 s. */
export async function pingMongo(url: string): Promise<void> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 1_000, connectTimeoutMS: 1_000 });
  try {
    await client.connect();
    await client.db("admin").command({ ping: 1 });
  } finally {
    await client.close();
  }
}

/** Resolves when nats-server at `url` accepts a connection and its JetStream answers. */
export async function pingJetStream(url: string): Promise<void> {
  const nc = await connect({ servers: url, reconnect: false, timeout: 1_000 });
  try {
    // Asks for the account's JetStream info: fails until JetStream is enabled and up.
    await jetstreamManager(nc, { timeout: 2_000 });
  } finally {
    await nc.close();
  }
}
