import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { connectMongo } from "@gateway/platform";
import { freePort, type ManagedProcess, startProcess, uniqueDbName, waitFor } from "@gateway/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedLaunch } from "../src/index.js";

// `npm start` with MONGODB_URL (and no NATS_URL): every service in one process on the Mongo
// adapters, the events passing in-process from the outboxes stored in MongoDB. Stopped and
// started again, it keeps its sessions, resumes a pending webhook retry, and sweeps what fell
// due while it was down.
const ADMIN_TOKEN = "adm_durable_embedded_5f0c2a";
const DEMO_KEY = "sk_test_DurableEmbedded01AbcdefghijklmnopqrstuvwxyzA";
const SESSION_LIFETIME_MS = 4_000;

interface Hook {
  event: string;
  sessionId: string;
  webhookId: string;
  status: number;
}

describe("embedded mode on MongoDB (npm start with MONGODB_URL)", () => {
  const prefix = uniqueDbName("embedded_durable");
  const hooks: Hook[] = [];
  let receiverFails = true;
  let receiver: http.Server;
  let receiverUrl: string;
  let port: number;
  let gateway: ManagedProcess | undefined;

  const start = async () => {
    gateway = await startProcess({
      name: "embedded-durable",
      ...embeddedLaunch,
      env: {
        PORT: String(port),
        MONGODB_URL: process.env.MONGODB_URL!,
        MONGODB_DATABASE_PREFIX: prefix,
        NATS_URL: "",
        GATEWAY_SECRETS_KEY: secretsKey,
        GATEWAY_DEMO_TEST_KEY: DEMO_KEY,
        GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
        GATEWAY_RATE_LIMITS: "off",
        GATEWAY_SESSION_LIFETIME: `${SESSION_LIFETIME_MS}ms`,
        GATEWAY_SWEEP_INTERVAL: "200ms",
        GATEWAY_WEBHOOK_POLL_INTERVAL: "200ms",
        // Long enough that the first retry is still pending when the test stops the process.
        GATEWAY_WEBHOOK_RETRY_SCHEDULE: "3s,3s,3s,3s",
      },
      readyUrl: `http://127.0.0.1:${port}/healthz`,
      timeoutMs: 60_000,
    });
    return gateway;
  };
  const secretsKey = randomBytes(32).toString("base64");
  const base = () => `http://127.0.0.1:${port}`;
  const api = (path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
    fetch(`${base()}${path}`, {
      method: init.method ?? "GET",
      headers: {
        authorization: `Bearer ${init.token ?? DEMO_KEY}`,
        ...(init.body ? { "content-type": "application/json" } : {}),
      },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    });
  const createSession = async (reference: string) => {
    const res = await api("/api/v1/gateway/sessions/", {
      method: "POST",
      body: { merchant_reference: reference, amount: "5.000" },
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const hookFor = (sessionId: string, event: string, status?: number) =>
    hooks.find(
      (h) => h.sessionId === sessionId && h.event === event && (status === undefined || h.status === status),
    );

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          event: string;
          data: { id: string };
        };
        const status = receiverFails ? 500 : 200;
        hooks.push({
          event: body.event,
          sessionId: body.data.id,
          webhookId: String(req.headers["x-service-webhook-id"]),
          status,
        });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    port = await freePort();
  });

  afterAll(async () => {
    await gateway?.stop();
    await new Promise((resolve) => receiver.close(resolve));
    const client = await connectMongo(process.env.MONGODB_URL!, "embedded-durable-test");
    try {
      for (const service of ["accounts", "sessions", "refunds", "webhooks"])
        await client.db(`${prefix}_${service}`).dropDatabase();
    } finally {
      await client.close();
    }
  });

  it("when restarted, then sessions are kept, a pending webhook retry is sent, and an expiry due while it was down is swept", async () => {
    const first = await start();
    expect(first.logs()).toContain("Data is kept in MongoDB");
    const endpoint = await api("/admin/v1/merchants/mer_demo/webhook-endpoints/test", {
      method: "PUT",
      body: { url: receiverUrl },
      token: ADMIN_TOKEN,
    });
    expect(endpoint.status).toBeLessThan(300);

    // A expires while running; its session.expired webhook fails once and waits for a retry.
    const a = await createSession("durable-a");
    await waitFor(() => hookFor(a, "session.expired", 500), {
      timeoutMs: 30_000,
      message: "the first, failing session.expired delivery of A",
    });
    // B falls due only after the process has stopped.
    const b = await createSession("durable-b");
    await first.stop();
    expect(hookFor(b, "session.expired")).toBeUndefined();
    const failedAttempt = hookFor(a, "session.expired", 500)!;

    receiverFails = false;
    await new Promise((resolve) => setTimeout(resolve, SESSION_LIFETIME_MS + 500));
    const second = await start();
    expect(second.logs()).toContain("Data is kept in MongoDB");

    // The created sessions survived.
    for (const id of [a, b]) expect((await api(`/api/v1/gateway/sessions/${id}/`)).status).toBe(200);
    // The retry of A's webhook, same event id, now answered 200.
    const retried = await waitFor(() => hookFor(a, "session.expired", 200), {
      timeoutMs: 60_000,
      message: "the retried delivery of A's session.expired",
    });
    expect(retried.webhookId).toBe(failedAttempt.webhookId);
    // B's expiry, due while the process was down, swept after the restart and relayed from the outbox.
    await waitFor(() => hookFor(b, "session.expired", 200), {
      timeoutMs: 60_000,
      message: "B's session.expired after the restart",
    });
    const bNow = (await (await api(`/api/v1/gateway/sessions/${b}/`)).json()) as { status: string };
    expect(bNow.status).toBe("EXPIRED");
  });
});
