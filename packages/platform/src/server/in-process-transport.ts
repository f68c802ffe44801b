import type { DescMethod, DescMethodUnary } from "@bufbuild/protobuf";
import {
  ConnectError,
  type ConnectRouter,
  createRouterTransport,
  type HandlerContext,
  type Interceptor,
  type MethodImplSpec,
  type Transport,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import { invokeUnaryImplementation } from "@connectrpc/connect/protocol";
import type { Logger } from "../logger.js";
import { callSignal, remainingTimeOf } from "./call-signal.js";
import { runClientUnaryCall, type UnaryFn } from "./client-unary-call.js";
import { inProcessServerInterceptors } from "./server-interceptors.js";
import { unaryMethodsOf } from "./unary-methods.js";

/**
 * A service's error as a network client would receive it: code, message, metadata and details
 * only. The server-side cause (a driver error, a stack) stays on the server's side, as it does
 * when the error crosses the wire.
 */
function asReceived(err: unknown): ConnectError {
  const e = ConnectError.from(err);
  const received = new ConnectError(e.rawMessage, e.code, e.metadata);
  received.details = e.details;
  return received;
}

/**
 * `answer()`, unless `signal` aborts first: then its reason, and the answer is left to settle
 * unseen. A signal already aborted never starts the answer, as a cancelled request is never sent.
 */
function untilAborted<T>(signal: AbortSignal, answer: () => Promise<T>): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  const answering = answer();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      answering.catch(() => undefined);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    answering.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}

/** A unary method served in process, with what every call to it hands its handler. */
interface HandlerTarget {
  spec: MethodImplSpec;
  method: DescMethod;
  url: string;
  serverInterceptors: Interceptor[];
}

/**
 * Runs the service's handler behind the server interceptors. The handler shares the call's
 * signal and deadline: both ends are in this process, so one signal serves both
 * (docs/decisions.md#in-process-calls-skip-the-wire). Helpers like this one live at module level,
 * not as closures made per call (docs/decisions.md#hot-paths-make-no-named-closures-per-call).
 */
async function callHandler(
  target: HandlerTarget,
  remainingMs: () => number | undefined,
  req: UnaryRequest,
): Promise<UnaryResponse> {
  const { method } = target;
  const context: HandlerContext = {
    service: method.parent,
    method,
    protocolName: "in-process",
    requestMethod: "POST",
    url: target.url,
    signal: req.signal,
    timeoutMs: remainingMs,
    requestHeader: req.header,
    responseHeader: new Headers(),
    responseTrailer: new Headers(),
    values: req.contextValues,
  };
  try {
    const message = await invokeUnaryImplementation(
      target.spec as never,
      context,
      req.message,
      target.serverInterceptors,
    );
    return {
      stream: false,
      service: method.parent,
      method,
      header: context.responseHeader,
      trailer: context.responseTrailer,
      message,
    } as UnaryResponse;
  } catch (err) {
    throw asReceived(err);
  }
}

/**
 * A Connect transport that calls a service's routes in this process (embedded mode, tests),
 * behind the same server interceptors as `startServiceServer` except tracing: the call runs in its
 * caller's span (docs/decisions.md#in-process-calls-carry-no-spans-of-their-own).
 *
 * Unary calls go straight from the client's interceptors to the server's and the handler, with
 * no encoding, HTTP emulation or stream plumbing in between: the request and response messages
 * are handed over as they are (docs/decisions.md#in-process-calls-skip-the-wire). Deadlines,
 * cancellation, headers, trailers and context values behave as over the network, and errors
 * arrive as a network client sees them. Streaming calls, which no gateway service has, go
 * through Connect's router transport.
 */
export function createInProcessTransport(o: {
  name: string;
  routes: (router: ConnectRouter) => void;
  logger: Logger;
  /** Extra server interceptors, as `startServiceServer`'s `interceptors`. */
  interceptors?: Interceptor[];
  /** Client-side interceptors, run around the call as a network client runs them. */
  clientInterceptors?: Interceptor[];
}): Transport {
  const serverInterceptors = inProcessServerInterceptors(o.name, o.logger, o.interceptors);
  const targets = new Map<DescMethod, HandlerTarget>();
  for (const [method, spec] of unaryMethodsOf(o.routes)) {
    const url = `in-process://${o.name}/${method.parent.typeName}/${method.name}`;
    targets.set(method, { spec, method, url, serverInterceptors });
  }
  let streaming: Transport | undefined;
  const routerTransport = () =>
    (streaming ??= createRouterTransport(o.routes, {
      router: { interceptors: serverInterceptors },
      transport: { interceptors: o.clientInterceptors },
    }));

  return {
    async unary(method, signal, timeoutMs, header, input, contextValues) {
      const target = targets.get(method as DescMethod);
      if (!target) return routerTransport().unary(method, signal, timeoutMs, header, input, contextValues);
      const remainingMs = remainingTimeOf(timeoutMs);
      const call = callSignal(signal, timeoutMs);
      // The answer, or the call's end (deadline, cancellation) if that comes first: a client
      // never waits on a handler that ignores its signal, as over the network. A call that only
      // its answer can end needs no watch on its signal.
      const next = (o.clientInterceptors ?? []).reduceRight<UnaryFn>(
        (inner, interceptor) => interceptor(inner as never) as UnaryFn,
        (req) =>
          req.signal === call.signal && call.endsOnlyByAnswer
            ? callHandler(target, remainingMs, req)
            : untilAborted(req.signal, () => callHandler(target, remainingMs, req)),
      );
      const response = await runClientUnaryCall(
        next,
        call,
        method as DescMethodUnary,
        target.url,
        new Headers(header),
        input,
        contextValues,
      );
      return response as UnaryResponse<typeof method.input, typeof method.output>;
    },
    stream(method, signal, timeoutMs, header, input, contextValues) {
      return routerTransport().stream(method, signal, timeoutMs, header, input, contextValues);
    },
  };
}
