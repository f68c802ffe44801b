import {
  type ConfigOf,
  grpcReflectionField,
  jetstreamReplicasField,
  managementPortField,
  parse,
  serviceAuthKeysField,
  shutdownConfigSpec,
} from "@gateway/platform";

/** Environment of the refunds process (distributed mode). */
export const refundsConfigSpec = {
  port: { env: "PORT", description: "gRPC/Connect port", default: "50053", parse: parse.port },
  serviceAuthKeys: serviceAuthKeysField("refunds"),
  grpcReflection: grpcReflectionField,
  jetstreamReplicas: jetstreamReplicasField,
  host: { env: "HOST", description: "address to listen on", default: "127.0.0.1", parse: parse.string },
  managementPort: managementPortField(9463),
  // May embed database credentials: never echoed in errors.
  mongodbUrl: {
    env: "MONGODB_URL",
    description: "MongoDB connection URL",
    secret: true,
    parse: parse.mongoUrl,
  },
  mongodbDatabase: {
    env: "MONGODB_DATABASE",
    description: "database of the refunds service",
    default: "gateway_refunds",
    parse: parse.string,
  },
  // May embed credentials (nats://user:pass@host): never echoed in errors.
  natsUrl: {
    env: "NATS_URL",
    description: "NATS server(s) with JetStream, comma-separated",
    secret: true,
    parse: parse.natsUrls,
  },
  accountsUrl: {
    env: "ACCOUNTS_URL",
    description: "address of the accounts service",
    default: "http://127.0.0.1:50051",
    parse: parse.url,
  },
  sessionsUrl: {
    env: "SESSIONS_URL",
    description: "address of the sessions service",
    default: "http://127.0.0.1:50052",
    parse: parse.url,
  },
  acquirerTimeoutMs: {
    env: "GATEWAY_ACQUIRER_TIMEOUT",
    description: "bound on each call to the acquirer",
    default: "15s",
    parse: parse.positiveDuration,
  },
  outboxPollIntervalMs: {
    env: "GATEWAY_OUTBOX_POLL_INTERVAL",
    description:
      "safety-net pause between looks for unpublished refund events (every write that stores one wakes the relay at once)",
    default: "1s",
    parse: parse.positiveDuration,
  },
  logLevel: { env: "LOG_LEVEL", description: "log level", default: "info", parse: parse.logLevel },
  ...shutdownConfigSpec,
};

export type RefundsConfig = ConfigOf<typeof refundsConfigSpec>;
