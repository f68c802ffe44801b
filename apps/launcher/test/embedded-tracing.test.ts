import { createLogger, initTelemetry, readConfig, type Telemetry } from "@gateway/platform";
import { waitFor } from "@gateway/testkit";
import { SpanKind } from "@opentelemetry/api";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedConfigSpec } from "../src/embedded-config.js";
import { type EmbeddedGateway, startEmbeddedGateway } from "../src/embedded-gateway.js";

const DEMO_KEY = "sk_test_TracingDemo0001AbcdefghijklmnopqrstuvwxyzABC";
const exporter = new InMemorySpanExporter();
let telemetry: Telemetry;
let gateway: EmbeddedGateway;

beforeAll(async () => {
  // The first initTelemetry of a process wins: the gateway's own call gets this one back.
  telemetry = initTelemetry({ serviceName: "gateway", exporter });
  const config = readConfig(embeddedConfigSpec, {
    PORT: "0",
    MANAGEMENT_PORT: "0",
    GATEWAY_PUBLIC_URL: "http://localhost:8080",
    GATEWAY_DEMO_TEST_KEY: DEMO_KEY,
    GATEWAY_RATE_LIMITS: "off",
  });
  gateway = await startEmbeddedGateway(config, createLogger({ service: "gateway", level: "silent" }));
});
afterAll(async () => {
  await gateway?.close();
  await telemetry.shutdown();
});

describe("embedded mode's traces", () => {
  it("when a session is created, then its trace is the request's span alone: the call to the sessions service in process adds none", async () => {
    const response = await fetch(`${gateway.url}/api/v1/gateway/sessions/`, {
      method: "POST",
      headers: { authorization: `Bearer ${DEMO_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ merchant_reference: "traced-1", amount: "1.000" }),
    });
    expect(response.status, await response.text()).toBe(201);

    const requestSpan = () =>
      exporter.getFinishedSpans().find((s) => s.name === "POST /api/v1/gateway/sessions/");
    await waitFor(() => requestSpan() !== undefined, { timeoutMs: 5_000, message: "the request's span" });
    const request = requestSpan()!;
    const trace = exporter
      .getFinishedSpans()
      .filter((s) => s.spanContext().traceId === request.spanContext().traceId);

    expect(request.kind).toBe(SpanKind.SERVER);
    expect(request.attributes["http.response.status_code"]).toBe(201);
    // The sessions service ran in the request's span: no CLIENT or SERVER span of its own.
    expect(trace.map((s) => s.name)).toEqual([request.name]);
  });
});
