import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { create } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import {
  connectMongo,
  connectNats,
  createJetStreamEventBus,
  generateServiceAuthKeys,
  type NatsConnection,
  parseServiceAuthKeys,
  serviceTokenInterceptor,
  systemClock,
} from "@gateway/platform";
import { AccountScopeSchema, DeliveryStatus, WebhookService } from "@gateway/proto";
import {
  freePort,
  type LocalServer,
  type ManagedProcess,
  startNatsServer,
  startProcess,
  uniqueDbName,
  waitFor,
} from "@gateway/testkit";
import { verifyWebhook } from "@gateway/webhook-signature";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type TestReceiver } from "./http/test-receiver.js";
import { eventFacts, newScope, publishedEvent } from "./support/fixtures.js";

const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url));
const MONGODB_URL = process.env.MONGODB_URL ?? "mongodb://127.0.0.1:27017";
const database = uniqueDbName("webhooks_main");
// The test calls WebhookService as the edge, the only caller the webhooks service accepts.
const serviceAuthKeys = generateServiceAuthKeys();

// A NATS server of its own: the process declares the default GATEWAY_EVENTS stream and the
// "webhooks" durable, which must not touch the shared development server's.
let nats: LocalServer;
let receiver: TestReceiver;
const processes: ManagedProcess[] = [];

beforeAll(async () => {
  nats = await startNatsServer();
  receiver = await startReceiver();
});

afterAll(async () => {
  for (const p of processes) await p.kill().catch(() => undefined);
  await receiver.close();
  await nats.stop();
  const mongo = await connectMongo(MONGODB_URL, "webhooks-main-test");
  await mongo.db(database).dropDatabase();
  await mongo.close();
});

async function startWebhooks(env: Record<string, string>, readyUrl?: string): Promise<ManagedProcess> {
  const p = await startProcess({ name: "webhooks", entry: MAIN, env, ...(readyUrl ? { readyUrl } : {}) });
  processes.push(p);
  return p;
}

describe("the webhooks process", () => {
  it("when started, then it serves WebhookService, delivers published session events signed, and stops cleanly on SIGTERM", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const service = await startWebhooks(
      {
        PORT: String(port),
        MONGODB_URL,
        MONGODB_DATABASE: database,
        NATS_URL: nats.url,
        GATEWAY_SECRETS_KEY: randomBytes(32).toString("base64"),
        GATEWAY_SERVICE_AUTH_KEYS: serviceAuthKeys.webhooks,
        GATEWAY_WEBHOOK_ALLOW_PRIVATE: "1",
        GATEWAY_WEBHOOK_RETRY_SCHEDULE: "50ms,50ms,50ms",
        GATEWAY_WEBHOOK_POLL_INTERVAL: "50ms",
        LOG_LEVEL: "debug",
      },
      `${base}/readyz`,
    );
    const asEdge = serviceTokenInterceptor(
      parseServiceAuthKeys("edge")(serviceAuthKeys.edge),
      "webhooks",
      systemClock,
    );
    const client = createClient(
      WebhookService,
      createGrpcTransport({ baseUrl: base, interceptors: [asEdge] }),
    );
    const scope = newScope();
    const { secret } = await client.setEndpoint({
      scope: create(AccountScopeSchema, scope),
      url: receiver.url,
    });
    expect(secret).toMatch(/^whsec_/);

    const nc: NatsConnection = await connectNats(nats.url, "webhooks-main-test-publisher");
    try {
      const bus = await createJetStreamEventBus({ nc });
      const facts = eventFacts("session.succeeded", { scope, occurredAt: new Date() });
      await bus.publish(publishedEvent(facts));
      await waitFor(() => receiver.requests.length === 1, { message: "the webhook POST" });
      const request = receiver.requests[0]!;
      expect(verifyWebhook(request.body, request.headers, secret)).toMatchObject({
        ok: true,
        webhookId: facts.eventId,
      });

      const listed = await waitFor(async () => {
        const { deliveries } = await client.listDeliveries({
          scope: create(AccountScopeSchema, scope),
          eventId: facts.eventId,
        });
        return deliveries[0]?.status === DeliveryStatus.SUCCEEDED ? deliveries : undefined;
      });
      expect(listed[0]).toMatchObject({
        eventId: facts.eventId,
        attemptNumber: 1,
        httpStatusCode: 200,
        url: receiver.url,
      });
      await bus.close();
    } finally {
      await nc.drain();
    }

    await service.stop();
    expect(await service.exited).toBe(0);
    const logs = service.logs();
    expect(logs).toContain("shutdown complete");
    expect(logs).not.toContain("whsec_");
    expect(logs).not.toContain(secret.slice(6, 30));
  });

  it("when GATEWAY_SECRETS_KEY is missing, then it names the variable on stderr and exits 1", async () => {
    const service = await startWebhooks({
      PORT: "0",
      MONGODB_URL,
      NATS_URL: nats.url,
      GATEWAY_SECRETS_KEY: "",
    });
    expect(await service.exited).toBe(1);
    expect(service.logs()).toMatch(/GATEWAY_SECRETS_KEY is required/);
  });
});
