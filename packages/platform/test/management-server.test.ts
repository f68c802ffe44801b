import { Counter } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { metricsRegistry } from "../src/metrics.js";
import { type RunningManagementServer, startManagementServer } from "../src/server/management-server.js";
import { captureLogger } from "./capture-logger.js";

const probe = new Counter({
  name: "gateway_management_test_probe_total",
  help: "test only",
  registers: [metricsRegistry],
});

describe("management listener", () => {
  let server: RunningManagementServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it("serves the process registry as Prometheus text on GET /metrics, on its own port", async () => {
    probe.inc(3);
    server = await startManagementServer({ name: "test", port: 0, logger: captureLogger("test").logger });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const text = await res.text();
    expect(text).toMatch(/^gateway_management_test_probe_total 3$/m);
    expect(text).toContain("process_cpu_user_seconds_total");
  });

  it.each([
    ["GET", "/"],
    ["GET", "/healthz"],
    ["POST", "/metrics"],
  ])("answers %s %s with a 404 problem document", async (method, path) => {
    server = await startManagementServer({ name: "test", port: 0, logger: captureLogger("test").logger });
    const res = await fetch(`${server.url}${path}`, { method });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toMatchObject({ status: 404, title: "Not Found" });
  });

  it("fails to start when its port is taken, instead of serving nothing", async () => {
    server = await startManagementServer({ name: "test", port: 0, logger: captureLogger("test").logger });
    await expect(
      startManagementServer({ name: "other", port: server.port, logger: captureLogger("test").logger }),
    ).rejects.toThrow(/EADDRINUSE/);
  });
});
