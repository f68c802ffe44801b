import { FastifyOtelInstrumentation } from "@fastify/otel";
import { SpanStatusCode } from "@opentelemetry/api";
import type { FastifyInstance, FastifyRequest } from "fastify";

/**
 * Traces every request of a fastify app with `@fastify/otel`: a SERVER span per request, named
 * `<METHOD> <route>` as OpenTelemetry's HTTP conventions name server spans, continuing a
 * `traceparent` the caller sent, with a `handler` child span in whose context the route handler
 * (and every gRPC call it makes) runs. Lifecycle hooks get no spans of their own: the edge has
 * several per request, and a span each would multiply the trace's size for no diagnosis.
 *
 * Use: `registerFastifyTracing(app)` once, right after creating the app and before any route.
 * The plugin is applied synchronously, as the library's own `registerOnInitialization` does,
 * because it wires routes through an `onRoute` hook: a route added before it would have no span.
 */
export function registerFastifyTracing(app: FastifyInstance): void {
  const instrumentation = new FastifyOtelInstrumentation({
    instrumentHooks: false,
    requestHook: (span, request) => {
      const route = request.routeOptions.url;
      span.updateName(route ? `${request.method} ${route}` : request.method);
      // The Request-Id the edge answers with: support finds the trace from the id a merchant quotes.
      span.setAttribute("gateway.request_id", request.id);
    },
  });
  instrumentation.plugin()(app, {}, (err) => {
    if (err) throw err;
  });
  // The library ends a request's span when the answer is sent; a client that goes away first
  // would leave it open and lost, so it ends here, marked as an error.
  app.addHook("onRequestAbort", (request: FastifyRequest, done) => {
    const { span } = request.opentelemetry();
    if (span?.isRecording()) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: "request aborted" });
      span.end();
    }
    done();
  });
}
