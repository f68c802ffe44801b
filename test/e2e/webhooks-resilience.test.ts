import { setTimeout as sleep } from "node:timers/promises";
import { type DistributedGateway, startDistributedGateway } from "@gateway/launcher";
import { type LocalServer, startNatsServer, waitFor } from "@gateway/testkit";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MerchantApi, merchantApi, request } from "./support/http.js";
import { payWithCard } from "./support/pay-with-card.js";
import { answer, startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";

// Events survive crashes end to end: the webhooks process killed mid-delivery, NATS restarted
// mid-stream, and the sessions process killed while its event could not be published. This
// suite runs its OWN nats-server (it is killed and restarted), never the shared one.
const ADMIN_TOKEN = "adm_e2e_webhooks_res_token_a4d2";
const DEMO = "mer_demo";
const prefix = `e2e_whres_${Date.now().toString(36)}`;
/** A delivery lease outlives the POST timeout by 30 s: a killed dispatcher's attempts come back after that. */
const AFTER_LEASE_MS = 90_000;

describe("webhook delivery survives crashes, distributed mode", () => {
  let nats: LocalServer;
  let gw: DistributedGateway;
  let demo: MerchantApi;
  let receiver: WebhookReceiver;
  let mongo: MongoClient;
  let counter = 0;

  const pay = async () => {
    const created = await demo.createSession({
      merchant_reference: `res-${Date.now().toString(36)}-${++counter}`,
      amount: "10.000",
      return_url: "https://shop.example/ok",
    });
    expect(created.status, created.text).toBe(201);
    await payWithCard(created.body.checkout_url, { number: "4242424242424242" });
    return created.body.id as string;
  };
  /** Distinct event ids received per session. */
  const eventIdsOf = (sessionId: string) => new Set(receiver.forSession(sessionId).map((r) => r.webhookId));
  const waitUntilEachDelivered = (sessionIds: string[], timeoutMs: number) =>
    waitFor(() => sessionIds.every((id) => eventIdsOf(id).size >= 1), {
      timeoutMs,
      intervalMs: 200,
      message: `a webhook for each of ${sessionIds.length} sessions`,
    });
  const expectOneSucceededEventEach = (sessionIds: string[]) => {
    for (const id of sessionIds) {
      const received = receiver.forSession(id);
      expect(eventIdsOf(id).size, id).toBe(1);
      expect(received.every((r) => r.json.event === "session.succeeded" && r.signature?.ok === true)).toBe(
        true,
      );
    }
  };

  beforeAll(async () => {
    nats = await startNatsServer();
    gw = await startDistributedGateway({
      mongodbUrl: process.env.MONGODB_URL,
      natsUrl: nats.url,
      databasePrefix: prefix,
      env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
      serviceEnv: {
        webhooks: {
          GATEWAY_WEBHOOK_TIMEOUT: "2s",
          GATEWAY_WEBHOOK_RETRY_SCHEDULE: "200ms,400ms,800ms",
          GATEWAY_WEBHOOK_POLL_INTERVAL: "100ms",
        },
      },
    });
    demo = merchantApi(gw.edgeUrl, gw.demoTestKey!);
    receiver = await startWebhookReceiver();
    const endpoint = await request(`${gw.edgeUrl}/admin/v1/merchants/${DEMO}/webhook-endpoints/test`, {
      method: "PUT",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: { url: receiver.url },
    });
    expect(endpoint.status, endpoint.text).toBe(200);
    receiver.setSecrets(endpoint.body.secret);
    mongo = await MongoClient.connect(gw.mongodbUrl);
  });

  afterAll(async () => {
    await mongo?.close();
    await gw?.stop();
    await receiver?.close();
    // The databases of this stack only.
    if (process.env.MONGODB_URL) {
      const client = await MongoClient.connect(process.env.MONGODB_URL);
      try {
        for (const service of ["accounts", "sessions", "webhooks"])
          await client.db(`${prefix}_${service}`).dropDatabase();
      } finally {
        await client.close();
      }
    }
    await nats?.stop();
  });

  it("delivers every event at least once when the webhooks process is SIGKILLed mid-delivery", async () => {
    // Slow answers: deliveries are in flight when the process dies.
    receiver.answerWith(() => answer.ok(1_000));
    const before = receiver.requests.length;
    const sessions: string[] = [];
    const paying = (async () => {
      for (let i = 0; i < 6; i++) sessions.push(await pay());
    })();
    const [inFlight] = (await receiver.waitForRequests(before + 1, () => true, 30_000)).slice(before);
    await gw.processes.webhooks.kill();
    // Its answer was still a second away: the process died with that delivery in flight.
    expect(Date.now() - inFlight!.receivedAt).toBeLessThan(1_000);
    await paying;
    await gw.restart("webhooks");
    await waitUntilEachDelivered(sessions, AFTER_LEASE_MS);
    // The interrupted delivery is sent again (at-least-once: the receiver sees it twice).
    await waitFor(() => receiver.requests.filter((r) => r.webhookId === inFlight!.webhookId).length >= 2, {
      timeoutMs: AFTER_LEASE_MS,
      message: "the interrupted delivery to be sent again",
    });
    expectOneSucceededEventEach(sessions);
    // Distinct event ids received = events emitted (one session.succeeded per paid session).
    const ids = new Set(sessions.flatMap((id) => [...eventIdsOf(id)]));
    expect(ids.size).toBe(6);
  }, 180_000);

  it("loses no event when nats-server restarts between payments", async () => {
    receiver.answerWith(() => answer.ok());
    const sessions = [await pay(), await pay()];
    await nats.restart();
    sessions.push(await pay(), await pay());
    await waitUntilEachDelivered(sessions, 60_000);
    expectOneSucceededEventEach(sessions);
  }, 150_000);

  it("loses no event when the sessions process is killed between its state change and the publish", async () => {
    receiver.answerWith(() => answer.ok());
    await nats.kill();
    const sessionId = await pay();
    const session = (await demo.getSession(sessionId)).body;
    expect(session.status).toBe("SUCCEEDED");
    // The state change is stored with its event; the publish failed, so the event waits in the outbox.
    const sessionsDb = mongo.db(`${prefix}_sessions`).collection("sessions");
    const stored = await sessionsDb.findOne({ id: sessionId });
    expect(Number(stored?.outboxPending)).toBeGreaterThan(0);
    const pending = (stored?.outbox ?? []).filter((e: { publishedAt: unknown }) => e.publishedAt === null);
    expect(pending).toHaveLength(1);
    // The relay tried and failed (NATS is down), and keeps the event for a later look.
    const sessionsProcess = gw.processes.sessions;
    await waitFor(() => sessionsProcess.logs().includes("event not published yet"), {
      timeoutMs: 30_000,
      message: "the sessions relay to report a failed publish",
    });
    expect(receiver.forSession(sessionId)).toEqual([]);
    expect(Number((await sessionsDb.findOne({ id: sessionId }))?.outboxPending)).toBeGreaterThan(0);

    await sessionsProcess.kill();
    await nats.restart();
    await gw.restart("sessions");
    await waitUntilEachDelivered([sessionId], 60_000);
    // Exactly once, by id, and nothing more after a while.
    await sleep(2_000);
    const received = receiver.forSession(sessionId);
    expect(received).toHaveLength(1);
    expect(received[0]!.json.event).toBe("session.succeeded");
    expect(received[0]!.webhookId).toBe(pending[0].eventId);
    expect(received[0]!.signature).toMatchObject({ ok: true });
    const after = await sessionsDb.findOne({ id: sessionId });
    expect(Number(after?.outboxPending)).toBe(0);
  }, 150_000);
});
