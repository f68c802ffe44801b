import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { initTelemetry, otlpTraceExporter, type Telemetry } from "@gateway/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, bearer, createTestEdge } from "./fakes/edge-test-harness.js";

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  name: string;
  /** OTLP's enum: 2 is SPAN_KIND_SERVER. */
  kind: number;
  attributes: Array<{ key: string; value: { stringValue?: string } }>;
}

const OTLP_SPAN_KIND_SERVER = 2;

/** A real OTLP/HTTP trace receiver: collects the spans of every JSON export request it gets. */
function startOtlpReceiver(): Promise<{ server: Server; url: string; spans: ReceivedSpan[] }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans: Array<{ scopeSpans: Array<{ spans: ReceivedSpan[] }> }>;
      };
      for (const rs of body.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, spans }),
    ),
  );
}

describe("log lines and traces", () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let telemetry: Telemetry;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    telemetry = initTelemetry({ serviceName: "edge", exporter: otlpTraceExporter(receiver.url) });
  });

  afterAll(async () => {
    await telemetry.shutdown();
    await new Promise((resolve) => receiver.server.close(resolve));
  });

  it("a request's log lines carry the trace_id and span_id of the SERVER span the OTLP receiver got, and the span names the Request-Id", async () => {
    const t = createTestEdge();
    const headers = bearer((await t.accounts.issueKey()).secret);
    const res = await t.app.inject({
      method: "GET",
      url: "/api/v1/gateway/sessions/sess_missing000001/",
      headers,
    });
    expect(res.statusCode).toBe(404);
    const requestId = res.headers["request-id"];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    await telemetry.provider.forceFlush();

    const lines = t.logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const completed = lines.find((l) => l.reqId === requestId && l.msg === "request completed");
    expect(completed, t.logLines.join("")).toBeDefined();
    expect(completed!.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(completed!.span_id).toMatch(/^[0-9a-f]{16}$/);

    const span = await waitForSpan(receiver.spans, (s) => s.spanId === completed!.span_id);
    expect(span.traceId).toBe(completed!.trace_id);
    expect(span.kind).toBe(OTLP_SPAN_KIND_SERVER);
    expect(span.name).toBe("GET /api/v1/gateway/sessions/:session_id/");
    expect(span.attributes).toContainEqual({ key: "gateway.request_id", value: { stringValue: requestId } });
  });

  it("when requests reach the merchant API and the admin API, then each trace is the request's span alone, named for its route", async () => {
    const t = createTestEdge();
    const api = await t.app.inject({
      method: "GET",
      url: "/api/v1/gateway/sessions/sess_missing000002/",
      headers: bearer((await t.accounts.issueKey()).secret),
    });
    const admin = await t.app.inject({
      method: "POST",
      url: "/admin/v1/merchants",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      payload: JSON.stringify({ name: "Shop" }),
    });
    expect([api.statusCode, admin.statusCode]).toEqual([404, 201]);
    await telemetry.provider.forceFlush();

    /** The names of every span in the trace of the request with this Request-Id. */
    const spanNames = async (requestId: unknown) => {
      const server = await waitForSpan(receiver.spans, (s) =>
        s.attributes.some((a) => a.key === "gateway.request_id" && a.value.stringValue === requestId),
      );
      return receiver.spans.filter((s) => s.traceId === server.traceId).map((s) => s.name);
    };
    // No handler or hook spans: the handler runs in the request's span, also after a JSON body
    // (packages/platform/test/tracing.test.ts shows a handler's calls are that span's children).
    expect(await spanNames(api.headers["request-id"])).toEqual(["GET /api/v1/gateway/sessions/:session_id/"]);
    expect(await spanNames(admin.headers["request-id"])).toEqual(["POST /admin/v1/merchants"]);
  });
});

async function waitForSpan(
  spans: ReceivedSpan[],
  match: (s: ReceivedSpan) => boolean,
): Promise<ReceivedSpan> {
  // Generous: the machine may be loaded; the span usually arrives within milliseconds.
  for (let i = 0; i < 300; i++) {
    const found = spans.find(match);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no matching span among ${spans.length} received`);
}
