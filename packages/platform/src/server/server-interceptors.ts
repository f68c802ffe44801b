import type { Interceptor } from "@connectrpc/connect";
import { errorDetailInterceptor } from "../errors/connect-errors.js";
import type { Logger } from "../logger.js";
import { rpcMetricsInterceptor } from "../metrics.js";
import { tracingServerInterceptor } from "../telemetry/rpc-tracing.js";

/**
 * The interceptors every gateway service runs behind, outermost first: tracing, metrics, the
 * caller check (`guard`, network servers only), then error details. Shared by network servers and in-process transports so that a service behaves
 * the same in embedded and distributed mode.
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
  return [
    tracingServerInterceptor(),
    rpcMetricsInterceptor(),
    // Outside the error details: a refusal keeps its own gRPC code and carries no ErrorDetail.
    ...(guard ? [guard] : []),
    errorDetailInterceptor(`${name}.gateway`, (err) =>
      logger.error({ err }, "unexpected error in RPC handler"),
    ),
    ...extra,
  ];
}
