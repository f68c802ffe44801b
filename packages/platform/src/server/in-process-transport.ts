import {
  type ConnectRouter,
  createRouterTransport,
  type Interceptor,
  type Transport,
} from "@connectrpc/connect";
import type { Logger } from "../logger.js";
import { standardServerInterceptors } from "./server-interceptors.js";

/**
 * A Connect transport that calls a service's routes in this process (embedded mode, tests),
 * behind the same server interceptors as `startServiceServer`.
 */
export function createInProcessTransport(o: {
  name: string;
  routes: (router: ConnectRouter) => void;
  logger: Logger;
  /** Extra server interceptors, as `startServiceServer`'s `interceptors`. */
  interceptors?: Interceptor[];
  /** Client-side interceptors (e.g. tracingClientInterceptor). */
  clientInterceptors?: Interceptor[];
}): Transport {
  return createRouterTransport(o.routes, {
    router: { interceptors: standardServerInterceptors(o.name, o.logger, o.interceptors) },
    transport: { interceptors: o.clientInterceptors },
  });
}
