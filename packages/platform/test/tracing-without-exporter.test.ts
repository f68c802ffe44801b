import { isSpanContextValid, trace } from "@opentelemetry/api";
import Fastify, { type FastifyBaseLogger } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerFastifyTracing } from "../src/telemetry/fastify-tracing.js";
import { initTelemetry, type Telemetry } from "../src/telemetry/tracing.js";
import { captureLogger } from "./capture-logger.js";

let telemetry: Telemetry;
let endpointBefore: string | undefined;
beforeAll(() => {
  endpointBefore = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  telemetry = initTelemetry({ serviceName: "no-exporter-test" });
});
afterAll(async () => {
  await telemetry.shutdown();
  if (endpointBefore !== undefined) process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpointBefore;
});

describe("tracing with nowhere to send spans", () => {
  it("when spans are started, then none is recorded, yet each has valid ids, a child keeps its parent's trace, and log lines carry them", () => {
    const { logger, lines } = captureLogger();
    const tracer = trace.getTracer("test");
    tracer.startActiveSpan("parent", (parent) => {
      expect(parent.isRecording()).toBe(false);
      expect(isSpanContextValid(parent.spanContext())).toBe(true);
      tracer.startActiveSpan("child", (child) => {
        expect(child.isRecording()).toBe(false);
        expect(child.spanContext().traceId).toBe(parent.spanContext().traceId);
        expect(child.spanContext().spanId).not.toBe(parent.spanContext().spanId);
        logger.info("in the child");
        expect(lines().at(-1)).toMatchObject({
          trace_id: child.spanContext().traceId,
          span_id: child.spanContext().spanId,
          trace_flags: "00",
        });
        child.end();
      });
      parent.end();
    });
  });

  it("when a request arrives with a traceparent, then its log lines carry the caller's trace id", async () => {
    const { logger, lines } = captureLogger("edge");
    const app = Fastify({ loggerInstance: logger as FastifyBaseLogger });
    registerFastifyTracing(app);
    app.get("/ping", async (request) => {
      request.log.info("handling ping");
      return { ok: true };
    });
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const res = await app.inject({
      method: "GET",
      url: "/ping",
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    await app.close();
    expect(res.statusCode).toBe(200);
    expect(lines().find((l) => l.msg === "handling ping")).toMatchObject({ trace_id: traceId });
  });
});
