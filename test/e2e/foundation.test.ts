import { createServer, type Server } from "node:http";
import { type DistributedGateway, startDistributedGateway } from "@gateway/launcher";
import { freePort, waitFor } from "@gateway/testkit";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdminApi, adminApi, merchantApi, request } from "./support/http.js";
import { createVerifiedMerchant, type TestMerchant } from "./support/merchants.js";
import { expectProblem } from "./support/problem.js";

// Issue 2 end to end: the gateway as separate processes (edge, accounts, sessions) over real
// gRPC, a MongoDB wire server and NATS; every assertion through public HTTP.
const ADMIN_TOKEN = "adm_e2e_foundation_token_3f9a8c";
const prefix = `e2e_found_${Date.now().toString(36)}`;

interface OtlpSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

/** A local OTLP/HTTP JSON receiver: what a collector would see. */
function startOtlpReceiver(port: number): Promise<{ server: Server; spans: OtlpSpan[] }> {
  const spans: OtlpSpan[] = [];
  const server = createServer((req, res) => {
    let data = "";
    req.on("data", (c) => (data += c));
    req.on("end", () => {
      try {
        const body = JSON.parse(data);
        for (const rs of body.resourceSpans ?? []) {
          const service = rs.resource?.attributes?.find((a: any) => a.key === "service.name")?.value
            ?.stringValue;
          for (const ss of rs.scopeSpans ?? []) {
            for (const s of ss.spans ?? [])
              spans.push({
                service,
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId,
                name: s.name,
              });
          }
        }
      } catch {
        // Protobuf-encoded bodies are not expected: the HTTP exporter sends JSON.
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve({ server, spans })));
}

describe("foundation, distributed mode", () => {
  let gw: DistributedGateway;
  let admin: AdminApi;
  let otlp: { server: Server; spans: OtlpSpan[] };
  let merchant: TestMerchant;
  const errorsUrl = () => `${gw.edgeUrl}/errors`;

  beforeAll(async () => {
    otlp = await startOtlpReceiver(await freePort());
    const otlpUrl = `http://127.0.0.1:${(otlp.server.address() as { port: number }).port}`;
    gw = await startDistributedGateway({
      mongodbUrl: process.env.MONGODB_URL,
      natsUrl: process.env.NATS_URL,
      databasePrefix: prefix,
      env: {
        GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
        GATEWAY_AUTH_CACHE_TTL: "1s",
        GATEWAY_MAX_BODY_BYTES: "4096",
        OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
        OTEL_BSP_SCHEDULE_DELAY: "100",
        LOG_LEVEL: "debug",
      },
    });
    admin = adminApi(gw.edgeUrl, ADMIN_TOKEN);
    merchant = await createVerifiedMerchant(admin, "Foundation Shop");
  });

  afterAll(async () => {
    await gw?.stop();
    otlp?.server.close();
  });

  it("answers healthz and readyz on the edge", async () => {
    expect((await request(`${gw.edgeUrl}/healthz`)).status).toBe(200);
    expect((await request(`${gw.edgeUrl}/readyz`)).status).toBe(200);
  });

  it("authenticates a test key as test mode and a live key as live mode", async () => {
    const test = await merchantApi(gw.edgeUrl, merchant.testKey).createSession({
      merchant_reference: "mode-t",
      amount: "1.000",
    });
    const live = await merchantApi(gw.edgeUrl, merchant.liveKey).createSession({
      merchant_reference: "mode-l",
      amount: "1.000",
    });
    expect(test.status, test.text).toBe(201);
    expect(test.body.livemode).toBe(false);
    expect(live.status, live.text).toBe(201);
    expect(live.body.livemode).toBe(true);
  });

  it("answers 401 unauthorized for missing, malformed and unknown keys", async () => {
    const list = (headers: Record<string, string>) =>
      request(`${gw.edgeUrl}/api/v1/gateway/sessions/list/`, { headers });
    expectProblem(await list({}), 401, "unauthorized", errorsUrl());
    expectProblem(await list({ authorization: "Basic Zm9vOmJhcg==" }), 401, "unauthorized", errorsUrl());
    expectProblem(await list({ authorization: "Bearer not-a-key" }), 401, "unauthorized", errorsUrl());
    expectProblem(
      await list({ authorization: "Bearer sk_test_AAAAAAAAAAAABBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB" }),
      401,
      "unauthorized",
      errorsUrl(),
    );
  });

  it("stops accepting a revoked key within seconds", async () => {
    const key = await admin.createKey(merchant.id, "test");
    const api = merchantApi(gw.edgeUrl, key.body.key);
    expect((await api.listSessions()).status).toBe(200);
    const revoked = await admin.revokeKey(key.body.id);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    await waitFor(async () => (await api.listSessions()).status === 401, {
      timeoutMs: 5_000,
      intervalMs: 200,
      message: "revoked key still accepted",
    });
    expectProblem(await api.listSessions(), 401, "unauthorized", errorsUrl());
  });

  it("rejects an expired key", async () => {
    const key = await admin.createKey(merchant.id, "test", new Date(Date.now() + 1_500).toISOString());
    expect(key.status, key.text).toBe(201);
    const api = merchantApi(gw.edgeUrl, key.body.key);
    await waitFor(async () => (await api.listSessions()).status === 401, {
      timeoutMs: 8_000,
      intervalMs: 250,
      message: "expired key still accepted",
    });
    expectProblem(await api.listSessions(), 401, "unauthorized", errorsUrl());
  });

  it("refuses a live key for an unverified merchant with 403 forbidden", async () => {
    const unverified = await admin.createMerchant("Unverified Shop");
    expectProblem(await admin.createKey(unverified.body.id, "live"), 403, "forbidden", errorsUrl());
    expect((await admin.createKey(unverified.body.id, "test")).status).toBe(201);
  });

  it("guards the admin API with the admin token", async () => {
    expectProblem(
      await request(`${gw.edgeUrl}/admin/v1/merchants`, { method: "POST", body: { name: "x" } }),
      401,
      "unauthorized",
      errorsUrl(),
    );
    expectProblem(
      await adminApi(gw.edgeUrl, "wrong-token").createMerchant("x"),
      401,
      "unauthorized",
      errorsUrl(),
    );
  });

  it("answers malformed JSON, non-object bodies, oversized bodies and unknown routes with problem documents", async () => {
    const url = `${gw.edgeUrl}/api/v1/gateway/sessions/`;
    const headers = { authorization: `Bearer ${merchant.testKey}`, "content-type": "application/json" };
    expectProblem(
      await request(url, { method: "POST", headers, rawBody: '{"amount": "1.000",' }),
      400,
      "bad-request",
      errorsUrl(),
    );
    expectProblem(
      await request(url, { method: "POST", headers, rawBody: "[1,2,3]" }),
      400,
      "bad-request",
      errorsUrl(),
    );
    expectProblem(
      await request(url, { method: "POST", headers, rawBody: '"text"' }),
      400,
      "bad-request",
      errorsUrl(),
    );
    const big = JSON.stringify({
      merchant_reference: "big",
      amount: "1.000",
      description: "x".repeat(10_000),
    });
    expectProblem(
      await request(url, { method: "POST", headers, rawBody: big }),
      413,
      "payload-too-large",
      errorsUrl(),
    );
    expectProblem(await request(`${gw.edgeUrl}/api/v1/nowhere/`, { headers }), 404, "not-found", errorsUrl());
    expectProblem(
      await request(url, {
        method: "POST",
        headers: { ...headers, "content-type": "text/plain" },
        rawBody: "hello",
      }),
      415,
      "unsupported-media-type",
      errorsUrl(),
    );
  });

  it("stores API keys only as hashes", async () => {
    const client = await MongoClient.connect(gw.mongodbUrl);
    try {
      const docs = await client.db(`${prefix}_accounts`).collection("api_keys").find().toArray();
      expect(docs.length).toBeGreaterThanOrEqual(2);
      const stored = JSON.stringify(docs);
      for (const key of [merchant.testKey, merchant.liveKey]) {
        expect(stored).not.toContain(key);
        expect(stored).not.toContain(key.slice(8 + 12)); // the secret part, even without the prefix
      }
    } finally {
      await client.close();
    }
  });

  it("follows one request from the edge to accounts in a single trace", async () => {
    // A fresh key, so the edge's auth cache cannot skip the call to accounts.
    const key = await admin.createKey(merchant.id, "test");
    const res = await merchantApi(gw.edgeUrl, key.body.key).getSession("ps_doesnotexist000000000000");
    expect(res.status).toBe(404);
    const trace = await waitFor(
      () => {
        const edgeRoots = otlp.spans.filter(
          (s) => s.service === "edge" && !s.parentSpanId && s.name.includes("/sessions/:session_id/"),
        );
        for (const root of edgeRoots) {
          const inTrace = otlp.spans.filter((s) => s.traceId === root.traceId);
          if (inTrace.some((s) => s.service === "accounts") && inTrace.some((s) => s.service === "sessions"))
            return inTrace;
        }
        return undefined;
      },
      { timeoutMs: 15_000, intervalMs: 200, message: "no trace spanning edge, accounts and sessions" },
    );
    const services = new Set(trace.map((s) => s.service));
    expect(services).toEqual(new Set(["edge", "accounts", "sessions"]));
    // Every non-root span's parent is in the same trace: one connected tree.
    const ids = new Set(trace.map((s) => s.spanId));
    for (const span of trace.filter((s) => s.parentSpanId)) expect(ids.has(span.parentSpanId!)).toBe(true);
  });

  it("never writes an API key or the admin token to any log", async () => {
    const secrets = [merchant.testKey, merchant.liveKey, ADMIN_TOKEN];
    for (const [name, proc] of Object.entries(gw.processes)) {
      const logs = proc.logs();
      expect(logs.length, `${name} wrote no logs`).toBeGreaterThan(0);
      for (const secret of secrets) expect(logs.includes(secret), `${name} logged a secret`).toBe(false);
    }
  });
});
