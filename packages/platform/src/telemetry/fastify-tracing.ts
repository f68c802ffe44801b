import {
  type Context,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { TRACER_NAME } from "./rpc-tracing.js";

interface RequestTrace {
  span: Span;
  ctx: Context;
}

/**
 * Traces every request of a fastify app with a SERVER span "HTTP <METHOD> <route>".
 *
 * Use: `registerFastifyTracing(app)` once, before routes are added. The span's context is
 * entered in `onRequest` and again in `preHandler`: body parsing, plugins' hooks and
 * streams may resume work outside the `onRequest` async scope, and re-entering just before
 * the handler guarantees the handler and every gRPC call below it are children of the HTTP
 * span. The span ends in `onResponse` (or `onRequestAbort` when the client goes away).
 */
export function registerFastifyTracing(app: FastifyInstance, o: { tracerName?: string } = {}): void {
  const traces = new WeakMap<FastifyRequest, RequestTrace>();
  const tracer = trace.getTracer(o.tracerName ?? TRACER_NAME);

  const finish = (req: FastifyRequest, statusCode?: number) => {
    const t = traces.get(req);
    if (!t) return;
    traces.delete(req);
    if (statusCode !== undefined) {
      t.span.setAttribute("http.response.status_code", statusCode);
      if (statusCode >= 500) t.span.setStatus({ code: SpanStatusCode.ERROR });
    } else {
      t.span.setStatus({ code: SpanStatusCode.ERROR, message: "request aborted" });
    }
    t.span.end();
  };

  app.addHook("onRequest", (req, _reply, done) => {
    const parent = propagation.extract(context.active(), req.headers);
    const route = req.routeOptions.url;
    const span = tracer.startSpan(
      route ? `HTTP ${req.method} ${route}` : `HTTP ${req.method}`,
      {
        kind: SpanKind.SERVER,
        // The Request-Id the edge answers with: support finds the trace from the id a merchant quotes.
        attributes: {
          "http.request.method": req.method,
          "gateway.request_id": req.id,
          ...(route ? { "http.route": route } : {}),
        },
      },
      parent,
    );
    const ctx = trace.setSpan(parent, span);
    traces.set(req, { span, ctx });
    context.with(ctx, done);
  });

  app.addHook("preHandler", (req, _reply, done) => {
    const t = traces.get(req);
    if (t) context.with(t.ctx, done);
    else done();
  });

  app.addHook("onError", (req, _reply, err, done) => {
    traces.get(req)?.span.recordException(err);
    done();
  });

  app.addHook("onResponse", (req, reply, done) => {
    finish(req, reply.statusCode);
    done();
  });

  app.addHook("onRequestAbort", (req, done) => {
    finish(req);
    done();
  });
}
