import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initTelemetry, type Telemetry } from "../src/telemetry/tracing.js";
import { captureLogger } from "./capture-logger.js";
import { PING_TRACE_ID, tracedPing } from "./traced-ping.js";

const exporter = new InMemorySpanExporter();
let telemetry: Telemetry;
beforeAll(() => {
  telemetry = initTelemetry({ serviceName: "logger-trace-test", exporter });
});
afterAll(async () => {
  await telemetry.shutdown();
});

describe("log lines and traces", () => {
  it("when a line is logged inside a span, then it carries that span's trace_id and span_id; a child span's lines carry the child's", () => {
    const { logger, lines } = captureLogger();
    const tracer = trace.getTracer("test");
    let parentIds: { traceId: string; spanId: string } | undefined;
    let childIds: { traceId: string; spanId: string } | undefined;
    tracer.startActiveSpan("parent", (parent) => {
      parentIds = parent.spanContext();
      logger.info("in the parent");
      tracer.startActiveSpan("child", (child) => {
        childIds = child.spanContext();
        logger.info("in the child");
        child.end();
      });
      parent.end();
    });
    logger.info("outside any span");

    const [inParent, inChild, outside] = lines();
    expect(inParent).toMatchObject({
      msg: "in the parent",
      trace_id: parentIds!.traceId,
      span_id: parentIds!.spanId,
      trace_flags: "01",
    });
    expect(inChild).toMatchObject({
      msg: "in the child",
      trace_id: parentIds!.traceId,
      span_id: childIds!.spanId,
    });
    expect(childIds!.spanId).not.toBe(parentIds!.spanId);
    expect(outside).not.toHaveProperty("trace_id");
    expect(outside).not.toHaveProperty("span_id");
  });

  it("when fastify handles a traced request, then its request log lines carry the server span's trace id", async () => {
    exporter.reset();
    const { statusCode, handled } = await tracedPing();
    expect(statusCode).toBe(200);
    expect(handled).toMatchObject({ trace_id: PING_TRACE_ID });
    const serverSpan = exporter.getFinishedSpans().find((s) => s.spanContext().traceId === PING_TRACE_ID);
    expect(handled!.span_id).toBe(serverSpan!.spanContext().spanId);
  });
});
