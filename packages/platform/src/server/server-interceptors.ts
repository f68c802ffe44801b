import type { Interceptor } from "@connectrpc/connect";
import { errorDetailInterceptor } from "../errors/connect-errors.js";
import type { Logger } from "../logger.js";
import { rpcMetricsInterceptor } from "../metrics.js";
import { tracingServerInterceptor } from "../telemetry/rpc-tracing.js";

/**
 * The interceptors every gateway service runs behind on the network, outermost first: tracing,
 * metrics, the caller check (`guard`), then error details.
 *
 * Routes must not pass `interceptors` to `router.service(...)`: Connect replaces the router's
 * list with the service's, which would silently drop these.
 */
export function standardServerInterceptors(
  name: string,
  logger: Logger,
  extra: Interceptor[] = [],
  guard?: Interceptor,
): Interceptor[] {
  return [tracingServerInterceptor(), ...untracedServerInterceptors(name, logger, extra, guard)];
}

/**
 * The same for a service called in process: metrics and error details, so that it answers as it
 * does in distributed mode, but no span. A call within one process is a function call that the
 * caller's span already covers (docs/decisions.md#in-process-calls-carry-no-spans-of-their-own).
 */
export function inProcessServerInterceptors(
  name: string,
  logger: Logger,
  extra: Interceptor[] = [],
): Interceptor[] {
  return untracedServerInterceptors(name, logger, extra);
}

function untracedServerInterceptors(
  name: string,
  logger: Logger,
  extra: Interceptor[],
  guard?: Interceptor,
): Interceptor[] {
  return [
    rpcMetricsInterceptor(),
    // Outside the error details: a refusal keeps its own gRPC code and carries no ErrorDetail.
    ...(guard ? [guard] : []),
    errorDetailInterceptor(`${name}.gateway`, (err) =>
      logger.error({ err }, "unexpected error in RPC handler"),
    ),
    ...extra,
  ];
}
