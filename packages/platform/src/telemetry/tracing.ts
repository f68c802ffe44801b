import { createRequire } from "node:module";
import { context, propagation, trace } from "@opentelemetry/api";
import type { OTLPTraceExporter as OtlpTraceExporterClass } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-node";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";

export interface Telemetry {
  provider: NodeTracerProvider;
  /** Flushes pending spans and unregisters the global provider, propagator and context manager. */
  shutdown(): Promise<void>;
}

let active: Telemetry | undefined;

/**
 * The OTLP exporter, loaded only when an endpoint is configured: without one it would be loaded
 * for nothing in every process (about 1.5 MiB of RSS). A synchronous require (the package is
 * CommonJS) keeps initTelemetry synchronous for its callers.
 */
function otlpTraceExporterClass(): typeof OtlpTraceExporterClass {
  const load = createRequire(import.meta.url);
  return (
    load("@opentelemetry/exporter-trace-otlp-http") as { OTLPTraceExporter: typeof OtlpTraceExporterClass }
  ).OTLPTraceExporter;
}

function spanProcessors(exporter: SpanExporter | undefined): SpanProcessor[] {
  // A given exporter (tests: InMemorySpanExporter) is flushed span by span so assertions see
  // spans at once; the network exporter batches.
  if (exporter) return [new SimpleSpanProcessor(exporter)];
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT)
    return [new BatchSpanProcessor(new (otlpTraceExporterClass())())];
  return [];
}

/**
 * Sets up tracing for this process: a NodeTracerProvider with the AsyncLocalStorage context
 * manager and the W3C trace-context propagator. The OpenTelemetry globals are per process,
 * so in embedded mode (several services in one process) the first call wins and later calls
 * get the same handle back; call `shutdown()` before initialising again.
 */
export function initTelemetry(o: { serviceName: string; exporter?: SpanExporter }): Telemetry {
  if (active) return active;
  const processors = spanProcessors(o.exporter);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: o.serviceName }),
    spanProcessors: processors,
    // With nowhere to send spans, none is recorded: each span is only its ids, which still
    // propagate across services and into logs. A recorded span was most of the garbage each
    // request left to the old generation (docs/decisions.md#spans-are-recorded-only-when-they-go-somewhere).
    ...(processors.length === 0 ? { sampler: new AlwaysOffSampler() } : {}),
  });
  provider.register();
  const telemetry: Telemetry = {
    provider,
    async shutdown() {
      if (active !== telemetry) return;
      active = undefined;
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
  active = telemetry;
  return telemetry;
}

/**
 * An OTLP/HTTP (JSON) trace exporter sending to `url` (a collector's `/v1/traces`), loaded the
 * same lazy way as the one OTEL_EXPORTER_OTLP_ENDPOINT configures.
 */
export function otlpTraceExporter(url: string): SpanExporter {
  return new (otlpTraceExporterClass())({ url });
}
