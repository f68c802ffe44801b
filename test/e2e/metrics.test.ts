import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDistributedGateway, type DistributedGateway, type GatewayProcessName } from "@gateway/launcher";
import { request } from "./support/http.js";
import { expectProblem } from "./support/problem.js";

// Issue 15 item 6: Prometheus metrics live on each process's management listener
// (MANAGEMENT_PORT), never on the edge's public port.
const prefix = `e2e_metrics_${Date.now().toString(36)}`;

describe("metrics, distributed mode", () => {
  let gw: DistributedGateway;

  beforeAll(async () => {
    gw = await startDistributedGateway({ mongodbUrl: process.env.MONGODB_URL, natsUrl: process.env.NATS_URL, databasePrefix: prefix });
  });

  afterAll(async () => {
    await gw?.stop();
  });

  it("when /metrics is asked on the edge's public port, then it is a 404 problem document", async () => {
    expectProblem(await request(`${gw.edgeUrl}/metrics`), 404, "not-found", `${gw.edgeUrl}/errors`);
  });

  it.each(["edge", "accounts", "sessions", "refunds", "webhooks"] satisfies GatewayProcessName[])(
    "when %s's management port is scraped, then it answers Prometheus text",
    async (name) => {
      const res = await request(`${gw.managementUrls[name]}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/plain");
      expect(res.text).toContain("# TYPE process_cpu_user_seconds_total counter");
    },
  );
});
