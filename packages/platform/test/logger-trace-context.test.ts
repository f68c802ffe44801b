import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-node";
import Fastify, { type FastifyBaseLogger } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerFastifyTracing } from "../src/telemetry/fastify-tracing.js";
import { initTelemetry, type Telemetry } from "../src/telemetry/tracing.js";
import { captureLogger } from "./capture-logger.js";

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
    expect(res.statusCode).toBe(200);
    await app.close();
    const handled = lines().find((l) => l.msg === "handling ping");
    expect(handled).toMatchObject({ trace_id: traceId });
    const serverSpan = exporter.getFinishedSpans().find((s) => s.spanContext().traceId === traceId);
    expect(handled!.span_id).toBe(serverSpan!.spanContext().spanId);
  });
});
