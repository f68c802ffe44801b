import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { TRACER_NAME } from "../telemetry/rpc-tracing.js";
import type { EventOutcome, ReceivedEvent } from "./event-bus.js";

/**
 * Publishes inside a PRODUCER span and hands `send` the headers with the W3C `traceparent`
 * added, so the consumer continues the publisher's trace.
 */
export async function tracePublish(
  subject: string,
  headers: Record<string, string> | undefined,
  send: (headers: Record<string, string>) => Promise<void>,
): Promise<void> {
  const span = trace.getTracer(TRACER_NAME).startSpan(`publish ${subject}`, {
    kind: SpanKind.PRODUCER,
    attributes: { "messaging.destination.name": subject },
  });
  const ctx = trace.setSpan(context.active(), span);
  const carrier: Record<string, string> = { ...headers };
  propagation.inject(ctx, carrier);
  try {
    await context.with(ctx, () => send(carrier));
  } catch (err) {
    span.recordException(err instanceof Error ? err : String(err));
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw err;
  } finally {
    span.end();
  }
}

/** Runs a handler inside a CONSUMER span that continues the trace found in the event's headers. */
export async function traceHandle(
  event: ReceivedEvent,
  handle: () => Promise<EventOutcome>,
): Promise<EventOutcome> {
  const parent = propagation.extract(context.active(), event.headers);
  const span = trace.getTracer(TRACER_NAME).startSpan(
    `process ${event.subject}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        "messaging.destination.name": event.subject,
        "messaging.message.id": event.id,
        "messaging.delivery_count": event.deliveryCount,
      },
    },
    parent,
  );
  try {
    const outcome = await context.with(trace.setSpan(parent, span), handle);
    span.setAttribute("gateway.event.outcome", typeof outcome === "string" ? outcome : "retry");
    if (outcome === "reject") span.setStatus({ code: SpanStatusCode.ERROR, message: "rejected" });
    return outcome;
  } catch (err) {
    span.recordException(err instanceof Error ? err : String(err));
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw err;
  } finally {
    span.end();
  }
}
