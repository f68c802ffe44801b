import { embeddedLaunch } from "@gateway/launcher";
import { freePorts, type ManagedProcess, startProcess } from "@gateway/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { merchantApi, request } from "./support/http.js";
import { payWithCard } from "./support/pay-with-card.js";

// `npm start` as a newcomer runs it: one process, no external services, a demo merchant.
const DEMO_KEY = "sk_test_DemoLookup01AbcdefghijklmnopqrstuvwxyzABCDEF";

describe("embedded mode (npm start)", () => {
  let proc: ManagedProcess;
  let url: string;
  let port: number;
  let managementUrl: string;

  beforeAll(async () => {
    let managementPort: number;
    [port, managementPort] = (await freePorts(2)) as [number, number];
    url = `http://127.0.0.1:${port}`;
    managementUrl = `http://127.0.0.1:${managementPort}`;
    proc = await startProcess({
      name: "embedded",
      ...embeddedLaunch,
      // No MONGODB_URL, no NATS_URL: embedded mode must not need them.
      env: {
        PORT: String(port),
        MANAGEMENT_PORT: String(managementPort),
        GATEWAY_DEMO_TEST_KEY: DEMO_KEY,
        MONGODB_URL: "",
        NATS_URL: "",
      },
      readyUrl: `${url}/healthz`,
      timeoutMs: 60_000,
    });
  });

  afterAll(async () => {
    await proc?.stop();
  });

  it("answers healthz and prints the demo key it was given", async () => {
    expect((await request(`${url}/healthz`)).status).toBe(200);
    expect(proc.logs()).toContain(`GATEWAY_DEMO_TEST_KEY=${DEMO_KEY}`);
  });

  it("says plainly in its start banner that data is kept in memory", () => {
    expect(proc.logs()).toContain("Data is kept in memory only: everything is lost when this process stops.");
  });

  it("serves Prometheus metrics on its one management listener, never on the public port", async () => {
    const metrics = await request(`${managementUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain("process_cpu_user_seconds_total");
    const publicMetrics = await request(`${url}/metrics`);
    expect(publicMetrics.status).toBe(404);
    expect(publicMetrics.headers.get("content-type")).toContain("application/problem+json");
  });

  it("serves the sessions API to the demo merchant", async () => {
    const api = merchantApi(url, DEMO_KEY);
    const created = await api.createSession({ merchant_reference: "embedded-1", amount: "12.500" });
    expect(created.status, created.text).toBe(201);
    expect(created.body.livemode).toBe(false);
    expect((await api.getSession(created.body.id)).body.id).toBe(created.body.id);
  });

  // Issue 15 item 8: GATEWAY_PUBLIC_URL used to default to http://localhost:8080 whatever PORT was.
  it("without GATEWAY_PUBLIC_URL, links, problem types and the demo terminal follow PORT, and a payment succeeds", async () => {
    const api = merchantApi(url, DEMO_KEY);
    const created = await api.createSession({ merchant_reference: "embedded-port", amount: "3.000" });
    expect(created.status, created.text).toBe(201);
    expect(created.body.checkout_url).toMatch(new RegExp(`^http://localhost:${port}/checkout/`));
    const invalid = await api.createSession({ merchant_reference: "embedded-port-bad", amount: "x" });
    expect(invalid.body.type).toBe(`http://localhost:${port}/errors/validation-error`);
    const run = await payWithCard(created.body.checkout_url, { number: "4242424242424242" });
    expect(run.returnStatus, run.returnPage.slice(0, 300)).toBe(303);
    expect((await api.getSession(created.body.id)).body.status).toBe("SUCCEEDED");
  });

  it("keeps the admin API disabled without GATEWAY_ADMIN_TOKEN", async () => {
    const res = await request(`${url}/admin/v1/merchants`, { method: "POST", body: { name: "x" } });
    expect(res.status).toBe(404);
  });
});
