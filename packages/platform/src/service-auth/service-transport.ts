import { Agent } from "node:http";
import type { Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { systemClock } from "../clock.js";
import { DRAIN_IDLE_H1_MS } from "../server/dual-protocol-listener.js";
import { SERVICE_MESSAGE_MAX_BYTES } from "../server/service-server.js";
import { tracingClientInterceptor } from "../telemetry/rpc-tracing.js";
import type { ServedServiceName } from "./caller-permissions.js";
import { createHttp1UnaryTransport } from "./http1-unary-transport.js";
import { serviceTokenInterceptor } from "./service-auth-interceptors.js";
import type { ServiceAuthKeys } from "./service-auth-keys.js";

/**
 * Connections one process keeps open to one service at most. A call beyond them waits for a
 * free one, within its deadline: a burst cannot open a connection per call.
 */
export const MAX_CONNECTIONS_PER_SERVICE = 64;

/**
 * A connection with no call on it is closed after this long, well before a draining service
 * closes idle connections itself (DRAIN_IDLE_H1_MS), so no call is sent on a connection the
 * service is closing.
 */
const IDLE_CONNECTION_MS = DRAIN_IDLE_H1_MS / 2;

interface ServiceCallOptions {
  defaultTimeoutMs?: number;
}

/** What every service call shares, whichever client carries it. */
function serviceCallParts(audience: ServedServiceName, keys: ServiceAuthKeys, o: ServiceCallOptions) {
  return {
    // Node's agent applies `timeout` to idle connections only; a call in progress keeps its deadline.
    agent: new Agent({
      keepAlive: true,
      maxSockets: MAX_CONNECTIONS_PER_SERVICE,
      timeout: IDLE_CONNECTION_MS,
    }),
    interceptors: [tracingClientInterceptor(), serviceTokenInterceptor(keys, audience, systemClock)],
    defaultTimeout: o.defaultTimeoutMs !== undefined ? { defaultTimeoutMs: o.defaultTimeoutMs } : {},
  };
}

/** Connect's own transport for the same calls, over the given pool and interceptors. */
function connectTransportOf(baseUrl: string, parts: ReturnType<typeof serviceCallParts>): Transport {
  return createConnectTransport({
    baseUrl,
    httpVersion: "1.1",
    nodeOptions: { agent: parts.agent },
    useBinaryFormat: true,
    readMaxBytes: SERVICE_MESSAGE_MAX_BYTES,
    interceptors: parts.interceptors,
    ...parts.defaultTimeout,
  });
}

/**
 * How one gateway service calls another in distributed mode: the Connect protocol with binary
 * protobuf, traced, and carrying a service token for `audience` (the caller's key for that
 * target, from GATEWAY_SERVICE_AUTH_KEYS; missing → an error at start-up, not at the first call).
 * The services still serve gRPC to every other client; between our own processes the Connect
 * protocol's unary calls cost each side less than gRPC's envelopes and trailers
 * (docs/decisions.md#services-call-each-other-with-the-connect-protocol).
 *
 * Calls travel over HTTP/1.1 on a bounded pool of keep-alive connections: measured no worse for
 * the create tail than one HTTP/2 connection, a little faster at saturation, and spread over a
 * Kubernetes Service's replicas as connections open
 * (docs/decisions.md#calls-between-services-use-a-pool-of-http11-connections).
 *
 * Unary calls are made by our own client over `node:http`, which leaves next to nothing of a
 * call in the old generation; streaming calls, which no service makes to another, by Connect's
 * (docs/decisions.md#calls-between-services-skip-connects-client-machinery).
 */
export function serviceTransport(
  baseUrl: string,
  audience: ServedServiceName,
  keys: ServiceAuthKeys,
  o: ServiceCallOptions = {},
): Transport {
  const parts = serviceCallParts(audience, keys, o);
  return createHttp1UnaryTransport({
    baseUrl,
    agent: parts.agent,
    interceptors: parts.interceptors,
    readMaxBytes: SERVICE_MESSAGE_MAX_BYTES,
    ...parts.defaultTimeout,
    streaming: connectTransportOf(baseUrl, parts),
  });
}

/**
 * The same service calls through Connect's own transport, with the same pool, interceptors,
 * deadline and size limit: the reference that `serviceTransport` is held to by one contract
 * suite, and the baseline it is measured against.
 */
export function connectServiceTransport(
  baseUrl: string,
  audience: ServedServiceName,
  keys: ServiceAuthKeys,
  o: ServiceCallOptions = {},
): Transport {
  return connectTransportOf(baseUrl, serviceCallParts(audience, keys, o));
}
