import { managementPortField, parse } from "../config/read-config.js";
import { serviceAuthKeysField } from "../service-auth/service-auth-keys.js";
import type { GatewayServiceName } from "../service-auth/service-names.js";

/** GATEWAY_GRPC_REFLECTION: off by default; reflection describes the API to grpcurl and `buf curl`. */
export const grpcReflectionField = {
  env: "GATEWAY_GRPC_REFLECTION",
  description:
    "serve gRPC server reflection (grpc.reflection.v1), so grpcurl and `buf curl` need no proto files; calls still need service credentials",
  default: "false",
  parse: parse.boolean,
};

/** GATEWAY_JETSTREAM_REPLICAS: copies of the events stream and the rate-limit KV bucket in a NATS cluster. */
export const jetstreamReplicasField = {
  env: "GATEWAY_JETSTREAM_REPLICAS",
  description:
    "replicas of the JetStream events stream and rate-limit KV bucket this process creates or updates: 1, or 3/5 in a clustered NATS (high availability)",
  default: "1",
  parse: (raw: string): number => {
    const n = parse.int(raw);
    if (![1, 3, 5].includes(n)) throw new Error("must be 1, 3 or 5");
    return n;
  },
};

/** HOST of a service process: loopback unless a deployment says otherwise. */
export const hostField = {
  env: "HOST",
  description: "address to listen on",
  default: "127.0.0.1",
  parse: parse.string,
};

/** MONGODB_URL: may embed database credentials, so it is never echoed in errors. */
export const mongodbUrlField = {
  env: "MONGODB_URL",
  description: "MongoDB connection URL",
  secret: true,
  parse: parse.mongoUrl,
};

/** MONGODB_DATABASE: each service keeps its own database, `gateway_<service>` by default. */
export function mongodbDatabaseField(service: string) {
  return {
    env: "MONGODB_DATABASE",
    description: `database of the ${service} service`,
    default: `gateway_${service}`,
    parse: parse.string,
  };
}

/** NATS_URL: may embed credentials (nats://user:pass@host), so it is never echoed in errors. */
export const natsUrlField = {
  env: "NATS_URL",
  description: "NATS server(s) with JetStream, comma-separated",
  secret: true,
  parse: parse.natsUrls,
};

/**
 * The fields every gRPC service process reads, declared once: its port and management port,
 * its service credentials, reflection, the listening address and its own MongoDB database.
 */
export function serviceProcessFields(o: {
  service: GatewayServiceName;
  port: number;
  managementPort: number;
}) {
  return {
    port: { env: "PORT", description: "gRPC/Connect port", default: String(o.port), parse: parse.port },
    serviceAuthKeys: serviceAuthKeysField(o.service),
    grpcReflection: grpcReflectionField,
    host: hostField,
    managementPort: managementPortField(o.managementPort),
    mongodbUrl: mongodbUrlField,
    mongodbDatabase: mongodbDatabaseField(o.service),
  };
}

/** The fields of a service that publishes or consumes events on JetStream. */
export const eventBusFields = { natsUrl: natsUrlField, jetstreamReplicas: jetstreamReplicasField };

/** Where each gRPC service listens by default (one port each, so a laptop runs them all). */
const DEFAULT_SERVICE_PORTS = { accounts: 50051, sessions: 50052, refunds: 50053, webhooks: 50054 } as const;

/** ACCOUNTS_URL, SESSIONS_URL…: the address a caller reaches `service` at. */
export function serviceUrlField(service: keyof typeof DEFAULT_SERVICE_PORTS) {
  return {
    env: `${service.toUpperCase()}_URL`,
    description: `address of the ${service} service (gRPC)`,
    default: `http://127.0.0.1:${DEFAULT_SERVICE_PORTS[service]}`,
    parse: parse.url,
  };
}

/** GATEWAY_ACQUIRER_TIMEOUT: read by every process that calls the acquirer (sessions, refunds, embedded). */
export const acquirerTimeoutField = {
  env: "GATEWAY_ACQUIRER_TIMEOUT",
  description: "bound on each call to the acquirer",
  default: "15s",
  parse: parse.positiveDuration,
};

/** GATEWAY_OUTBOX_POLL_INTERVAL of a service whose writes store `what` events in an outbox. */
export function outboxPollIntervalField(what: "session" | "refund") {
  return {
    env: "GATEWAY_OUTBOX_POLL_INTERVAL",
    description: `safety-net pause between looks for unpublished ${what} events (every write that stores one wakes the relay at once; up to 5x this while nothing is found)`,
    default: "1s",
    parse: parse.positiveDuration,
  };
}
