import { metricsRegistry } from "@gateway/platform";
import { metricValue } from "@gateway/testkit";
import { describe, expect, it } from "vitest";
import { bearer, createTestEdge } from "./fakes/edge-test-harness.js";

const requests = (labels: Record<string, string>) => metricValue("gateway_http_requests_total", labels);
const durations = (labels: Record<string, string>) =>
  metricValue("gateway_http_request_duration_seconds", labels);

describe("edge RED metrics", () => {
  it("when a session is read by id, then the series is labelled by the route template, never the id", async () => {
    const t = createTestEdge();
    const auth = bearer((await t.accounts.issueKey()).secret);
    const route = { route: "/api/v1/gateway/sessions/:session_id/", method: "GET", status_class: "4xx" };
    const before = await requests(route);
    const beforeDurations = await durations(route);
    const res = await t.app.inject({
      method: "GET",
      url: "/api/v1/gateway/sessions/cs_secret_looking_id_123/",
      headers: auth,
    });
    expect(res.statusCode).toBe(404);
    expect(await requests(route)).toBe(before + 1);
    expect(await durations(route)).toBe(beforeDurations + 1);
    const text = await metricsRegistry.metrics();
    expect(text).not.toContain("cs_secret_looking_id_123");
  });

  it("when the metrics are read, then the request counter is a counter equal to the duration histogram's count, series by series", async () => {
    const t = createTestEdge();
    for (const url of ["/healthz", "/healthz", "/no-such-page"]) await t.app.inject({ method: "GET", url });
    const text = await metricsRegistry.metrics();
    expect(text).toContain("# TYPE gateway_http_requests_total counter");
    const series = (name: string) =>
      new Map(
        [...text.matchAll(new RegExp(`^${name}(\\{[^}]*\\}) (\\S+)$`, "gm"))].map((m) => [
          m[1],
          Number(m[2]),
        ]),
      );
    const counted = series("gateway_http_requests_total");
    expect(counted.get('{route="/healthz",method="GET",status_class="2xx"}')).toBeGreaterThanOrEqual(2);
    expect(counted).toEqual(series("gateway_http_request_duration_seconds_count"));
  });

  it("when requests succeed, then they count as 2xx of their route", async () => {
    const t = createTestEdge();
    const route = { route: "/healthz", method: "GET", status_class: "2xx" };
    const before = await requests(route);
    for (let i = 0; i < 3; i++)
      expect((await t.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    expect(await requests(route)).toBe(before + 3);
  });

  it("when paths match no route, then they all share the one `unmatched` route value", async () => {
    const t = createTestEdge();
    const unmatched = { route: "unmatched", method: "GET", status_class: "4xx" };
    const before = await requests(unmatched);
    await t.app.inject({ method: "GET", url: "/wp-admin/setup.php" });
    await t.app.inject({ method: "GET", url: "/metrics" });
    await t.app.inject({ method: "GET", url: `/random/${"x".repeat(40)}` });
    expect(await requests(unmatched)).toBe(before + 3);
    expect(await metricsRegistry.metrics()).not.toContain("wp-admin");
  });

  it("when a client sends a non-standard method, then it is counted as OTHER", async () => {
    const t = createTestEdge();
    const other = { route: "unmatched", method: "OTHER", status_class: "4xx" };
    const before = await requests(other);
    await t.app.inject({ method: "PROPFIND" as "GET", url: "/healthz" });
    expect(await requests(other)).toBe(before + 1);
  });

  it("when a dependency is down, then the answer counts as 5xx", async () => {
    const t = createTestEdge();
    const auth = bearer((await t.accounts.issueKey()).secret);
    t.outage.sessions = true;
    const route = { route: "/api/v1/gateway/sessions/:session_id/", method: "GET", status_class: "5xx" };
    const before = await requests(route);
    const res = await t.app.inject({ method: "GET", url: "/api/v1/gateway/sessions/cs_1/", headers: auth });
    expect(res.statusCode).toBeGreaterThanOrEqual(500);
    expect(await requests(route)).toBe(before + 1);
  });
});
