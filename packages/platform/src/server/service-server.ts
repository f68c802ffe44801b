import type { DescService } from "@bufbuild/protobuf";
import type { ConnectRouter, Interceptor } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { Health, ServerReflection } from "@gateway/proto";
import { systemClock } from "../clock.js";
import type { Logger } from "../logger.js";
import type { ServedServiceName } from "../service-auth/caller-permissions.js";
import { serviceAuthGuard } from "../service-auth/service-auth-interceptors.js";
import type { ServiceAuthKeys } from "../service-auth/service-auth-keys.js";
import { createConnectUnaryHandler } from "./connect-unary-handler.js";
import { createDualProtocolListener } from "./dual-protocol-listener.js";
import { createHealthService } from "./health-service.js";
import { handleOpsRequest } from "./ops-endpoints.js";
import { type ReadinessCheck, runReadinessChecks } from "./readiness.js";
import { createReflectionService } from "./reflection-service.js";
import { standardServerInterceptors } from "./server-interceptors.js";

export interface ServiceServerOptions {
  /** Short service name, e.g. "accounts"; errors carry the domain `${name}.gateway`. */
  name: string;
  /** Default "127.0.0.1". */
  host?: string;
  /** 0 = a free port. */
  port: number;
  routes: (router: ConnectRouter) => void;
  readiness?: ReadinessCheck[];
  logger: Logger;
  /** Extra server interceptors; they run inside the standard ones, so what they throw is mapped too. */
  interceptors?: Interceptor[];
  /**
   * Service-to-service authentication: calls need a token from a caller the permission table
   * allows (health and reflection stay open). Every service's main passes it; only tests that
   * exercise the transport itself leave it out.
   */
  auth?: { target: ServedServiceName; keys: ServiceAuthKeys };
  /** Serve `grpc.reflection.v1.ServerReflection` (GATEWAY_GRPC_REFLECTION). */
  reflection?: boolean;
}

export interface RunningServer {
  port: number;
  /** e.g. "http://127.0.0.1:50051" */
  url: string;
  /** Stops accepting, lets in-flight calls finish for up to `graceMs` (10 s by default), then drops them. */
  close(graceMs?: number): Promise<void>;
}

const DRAIN_GRACE_MS = 10_000;
/** The largest message a service reads, and a caller reads back from one. */
export const SERVICE_MESSAGE_MAX_BYTES = 4 * 1024 * 1024;

function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * Starts a service's RPC server: gRPC, gRPC-Web and Connect on one port over HTTP/2 and
 * HTTP/1.1, the `grpc.health.v1.Health` service, and `/healthz`, `/readyz`
 * (`/metrics` is on the process's management listener, startManagementServer).
 * Interceptors, outermost first: tracing, metrics, error details, then the caller's.
 */
export async function startServiceServer(o: ServiceServerOptions): Promise<RunningServer> {
  const host = o.host ?? "127.0.0.1";
  const closing = new AbortController();
  const checks = o.readiness ?? [];
  const readiness = () => runReadinessChecks(checks, o.logger);
  const knownServices = new Set<string>([o.name]);
  const hosted = new Map<string, DescService>();
  const guard = o.auth ? serviceAuthGuard({ ...o.auth, clock: systemClock, logger: o.logger }) : undefined;

  const interceptors = standardServerInterceptors(o.name, o.logger, o.interceptors, guard);
  // The calls our own services send each other skip Connect's adapter; it serves the rest
  // (docs/decisions.md#services-serve-each-others-calls-without-connects-adapter).
  const unary = createConnectUnaryHandler({
    routes: o.routes,
    interceptors,
    readMaxBytes: SERVICE_MESSAGE_MAX_BYTES,
  });
  const rpc = connectNodeAdapter({
    readMaxBytes: SERVICE_MESSAGE_MAX_BYTES,
    interceptors,
    routes(router) {
      o.routes(router);
      for (const h of router.handlers) {
        knownServices.add(h.service.typeName);
        hosted.set(h.service.typeName, h.service);
      }
      if (o.reflection) {
        hosted.set(Health.typeName, Health);
        hosted.set(ServerReflection.typeName, ServerReflection);
        router.service(
          ServerReflection,
          createReflectionService(() => [...hosted.values()]),
        );
      }
      if (!knownServices.has(Health.typeName)) {
        router.service(
          Health,
          createHealthService({ knownServices: () => knownServices, readiness, closing: closing.signal }),
        );
      }
    },
  });

  const listener = createDualProtocolListener((req, res) => {
    if (!handleOpsRequest(req, res, readiness) && !unary(req, res)) rpc(req, res);
  }, o.logger);
  const port = await listener.listen(host, o.port);
  const url = `http://${urlHost(host)}:${port}`;
  o.logger.info({ url }, `${o.name} listening`);

  let closed: Promise<void> | undefined;
  return {
    port,
    url,
    close(graceMs = DRAIN_GRACE_MS) {
      closed ??= (async () => {
        closing.abort();
        await listener.drain(Math.min(graceMs, DRAIN_GRACE_MS));
        o.logger.info(`${o.name} stopped`);
      })();
      return closed;
    },
  };
}
