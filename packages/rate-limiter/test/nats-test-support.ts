import { randomBytes } from "node:crypto";
import { Kvm } from "@nats-io/kv";
import { connect, type NatsConnection } from "@nats-io/transport-node";

export function natsUrl(): string {
  const url = process.env.NATS_URL;
  if (!url)
    throw new Error("NATS_URL is not set: run integration tests through vitest's `integration` project");
  return url;
}

export function uniqueBucketName(): string {
  return `rl_test_${randomBytes(6).toString("hex")}`;
}

export function connectNats(url = natsUrl()): Promise<NatsConnection> {
  return connect({ servers: url, name: "rate-limiter-tests" });
}

/** Removes a test bucket (and its stream). */
export async function destroyBucket(nc: NatsConnection, bucket: string): Promise<void> {
  const kv = await new Kvm(nc).open(bucket);
  await kv.destroy();
}
