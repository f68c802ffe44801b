import type { ConnectRouter, Interceptor } from "@connectrpc/connect";
import { startManagementServer } from "../server/management-server.js";
import type { ReadinessCheck } from "../server/readiness.js";
import { startServiceServer } from "../server/service-server.js";
import type { ServedServiceName } from "../service-auth/caller-permissions.js";
import type { ServiceAuthKeys } from "../service-auth/service-auth-keys.js";
import type { ServiceContext } from "./run-service.js";

/** What `serviceProcessFields` (server/server-config-fields.ts) reads for every gRPC service. */
export interface GrpcServiceProcessConfig {
  host: string;
  port: number;
  managementPort: number;
  serviceAuthKeys: ServiceAuthKeys;
  grpcReflection: boolean;
}

export interface ServeGrpcServiceOptions {
  name: ServedServiceName;
  config: GrpcServiceProcessConfig;
  routes: (router: ConnectRouter) => void;
  readiness: ReadinessCheck[];
  interceptors?: Interceptor[];
}

/**
 * A distributed service's two listeners, started the one way every service starts them: the
 * management listener (Prometheus scrapes MANAGEMENT_PORT; the service port serves no /metrics)
 * and the RPC server, callers authenticated for this service, reflection as configured. Both
 * are registered to stop at shutdown, the server first. Call it once the stores and clients the
 * routes use are connected: the service is reachable from here on.
 */
export async function serveGrpcService(
  context: Pick<ServiceContext<unknown>, "logger" | "onStop">,
  o: ServeGrpcServiceOptions,
): Promise<void> {
  const { logger, onStop } = context;
  const { config } = o;
  const management = await startManagementServer({
    name: o.name,
    host: config.host,
    port: config.managementPort,
    logger,
  });
  onStop("management", () => management.close());
  const server = await startServiceServer({
    name: o.name,
    host: config.host,
    port: config.port,
    routes: o.routes,
    readiness: o.readiness,
    auth: { target: o.name, keys: config.serviceAuthKeys },
    reflection: config.grpcReflection,
    ...(o.interceptors ? { interceptors: o.interceptors } : {}),
    logger,
  });
  onStop("server", (remainingMs) => server.close(remainingMs));
}
