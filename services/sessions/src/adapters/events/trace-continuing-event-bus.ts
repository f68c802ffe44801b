import type { EventBus } from "@gateway/platform";
import { context, propagation, ROOT_CONTEXT } from "@opentelemetry/api";

/**
 * The bus, publishing each event inside the trace context recorded in its headers (the
 * request that made the change), not the relay's: the publish span and the consumer's spans
 * then belong to the payment's trace, from the edge to the webhook POST.
 */
export function publishingInRecordedTrace(bus: EventBus): EventBus {
  return {
    publish: (e) => context.with(propagation.extract(ROOT_CONTEXT, e.headers ?? {}), () => bus.publish(e)),
    subscribe: (o) => bus.subscribe(o),
    close: () => bus.close(),
  };
}
