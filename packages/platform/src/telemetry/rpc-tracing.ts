import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import {
  type Context,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type TextMapSetter,
  trace,
} from "@opentelemetry/api";
import { observeStream } from "../observe-stream.js";

export const TRACER_NAME = "@gateway/platform";

const headerSetter: TextMapSetter<Headers> = { set: (carrier, key, value) => carrier.set(key, value) };
const headerGetter: TextMapGetter<Headers> = {
  get: (carrier, key) => carrier.get(key) ?? undefined,
  keys: (carrier) => [...carrier.keys()],
};

// gRPC semantic conventions: on the server only these codes mean the server failed; a
// NOT_FOUND or INVALID_ARGUMENT is the caller's problem and not a server span error.
const SERVER_FAULTS = new Set([
  Code.Unknown,
  Code.DeadlineExceeded,
  Code.Unimplemented,
  Code.Internal,
  Code.Unavailable,
  Code.DataLoss,
]);

function finishSpan(span: Span, err: unknown, side: "client" | "server"): void {
  if (err !== undefined) {
    const code = err instanceof ConnectError ? err.code : Code.Unknown;
    span.setAttribute("rpc.connect_rpc.error_code", codeToString(code));
    if (side === "client" || SERVER_FAULTS.has(code)) {
      span.recordException(err instanceof Error ? err : String(err));
      span.setStatus({ code: SpanStatusCode.ERROR, message: codeToString(code) });
    }
  }
  span.end();
}

function rpcAttributes(req: { service: { typeName: string }; method: { name: string } }) {
  return { "rpc.system": "connect_rpc", "rpc.service": req.service.typeName, "rpc.method": req.method.name };
}

/** Runs `next` inside `ctx`, ending `span` when the unary call returns or the stream ends. */
const traced =
  (span: Span, ctx: Context, side: "client" | "server"): Interceptor =>
  (next) =>
  async (req) => {
    try {
      const res = await context.with(ctx, () => next(req));
      if (!res.stream) {
        finishSpan(span, undefined, side);
        return res;
      }
      const message = observeStream(
        res.message,
        (err) => finishSpan(span, err, side),
        (fn) => context.with(ctx, fn),
      );
      return { ...res, message };
    } catch (err) {
      finishSpan(span, err, side);
      throw err;
    }
  };

/**
 * Client interceptor: a CLIENT span "rpc <service>/<method>" whose context travels to the
 * server in the W3C `traceparent` header.
 */
export function tracingClientInterceptor(): Interceptor {
  return (next) => async (req) => {
    const span = trace.getTracer(TRACER_NAME).startSpan(`rpc ${req.service.typeName}/${req.method.name}`, {
      kind: SpanKind.CLIENT,
      attributes: rpcAttributes(req),
    });
    const ctx = trace.setSpan(context.active(), span);
    propagation.inject(ctx, req.header, headerSetter);
    return traced(span, ctx, "client")(next)(req);
  };
}

/**
 * Server interceptor: continues the caller's trace from the request headers and runs the
 * handler inside a SERVER span, so everything the handler calls becomes its child.
 */
export function tracingServerInterceptor(): Interceptor {
  return (next) => async (req) => {
    const parent = propagation.extract(context.active(), req.header, headerGetter);
    const span = trace
      .getTracer(TRACER_NAME)
      .startSpan(
        `rpc ${req.service.typeName}/${req.method.name}`,
        { kind: SpanKind.SERVER, attributes: rpcAttributes(req) },
        parent,
      );
    return traced(span, trace.setSpan(parent, span), "server")(next)(req);
  };
}
