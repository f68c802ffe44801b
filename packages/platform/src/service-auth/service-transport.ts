import type { Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { systemClock } from "../clock.js";
import { tracingClientInterceptor } from "../telemetry/rpc-tracing.js";
import type { ServedServiceName } from "./caller-permissions.js";
import { serviceTokenInterceptor } from "./service-auth-interceptors.js";
import type { ServiceAuthKeys } from "./service-auth-keys.js";

/**
 * How one gateway service calls another in distributed mode: the Connect protocol with binary
 * protobuf over HTTP/2, traced, and carrying a service token for `audience` (the caller's key for
 * that target, from GATEWAY_SERVICE_AUTH_KEYS; missing → an error at start-up, not at the first
 * call). The services still serve gRPC to every other client; between our own processes the
 * Connect protocol's unary calls cost each side less than gRPC's envelopes and trailers
 * (docs/decisions.md#services-call-each-other-with-the-connect-protocol).
 */
export function serviceTransport(
  baseUrl: string,
  audience: ServedServiceName,
  keys: ServiceAuthKeys,
  o: { defaultTimeoutMs?: number } = {},
): Transport {
  return createConnectTransport({
    baseUrl,
    httpVersion: "2",
    useBinaryFormat: true,
    interceptors: [tracingClientInterceptor(), serviceTokenInterceptor(keys, audience, systemClock)],
    ...(o.defaultTimeoutMs !== undefined ? { defaultTimeoutMs: o.defaultTimeoutMs } : {}),
  });
}
