import { FastifyOtelInstrumentation } from "@fastify/otel";
import { type Context, context, SpanStatusCode } from "@opentelemetry/api";
import type { FastifyInstance, FastifyRequest } from "fastify";

const REQUEST_CONTEXT = Symbol("the request's trace context");
type RequestWithContext = FastifyRequest & { [REQUEST_CONTEXT]?: Context };

/**
 * Traces every request of a fastify app with `@fastify/otel`: a SERVER span per request, named
 * `<METHOD> <route>` as OpenTelemetry's HTTP conventions name server spans, continuing a
 * `traceparent` the caller sent. The route handler (and every gRPC call it makes) runs in that
 * span's context. Neither the handler nor the lifecycle hooks get spans of their own: the edge
 * has several hooks per request, and a span each would multiply every trace for no diagnosis.
 *
 * Use: `registerFastifyTracing(app)` once, right after creating the app and before any route.
 * The plugin is applied synchronously, as the library's own `registerOnInitialization` does,
 * because it wires routes through an `onRoute` hook: a route added before it would have no span.
 */
export function registerFastifyTracing(app: FastifyInstance): void {
  const instrumentation = new FastifyOtelInstrumentation({
    instrumentHooks: false,
    instrumentHandler: false,
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
  // The handler runs in the request's span, with no span of its own
  // (docs/decisions.md#one-span-per-http-request). The library runs only the request's first
  // hooks in its context; a body is parsed in a later socket event, outside it. So the context is
  // kept here, where it is still active, and entered again before validation, which runs the
  // rest of the request (hooks, then the handler) in the same turn. The library's own
  // `request.opentelemetry().context` holds the same, but builds an object and two closures on
  // each read.
  app.decorateRequest(REQUEST_CONTEXT, undefined);
  app.addHook("onRequest", (request: FastifyRequest, _reply, done) => {
    (request as RequestWithContext)[REQUEST_CONTEXT] = context.active();
    done();
  });
  app.addHook("preValidation", (request: FastifyRequest, _reply, done) => {
    const requestContext = (request as RequestWithContext)[REQUEST_CONTEXT];
    if (requestContext === undefined) done();
    else context.with(requestContext, done);
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
