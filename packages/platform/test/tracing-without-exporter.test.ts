import { isSpanContextValid, trace } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initTelemetry, type Telemetry } from "../src/telemetry/tracing.js";
import { captureLogger } from "./capture-logger.js";
import { PING_TRACE_ID, tracedPing } from "./traced-ping.js";

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
    const { statusCode, handled } = await tracedPing();
    expect(statusCode).toBe(200);
    expect(handled).toMatchObject({ trace_id: PING_TRACE_ID });
  });
});
