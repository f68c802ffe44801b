import {
  type ConfigOf,
  eventBusFields,
  parse,
  serviceProcessFields,
  shutdownConfigSpec,
} from "@gateway/platform";

/** Environment of the refunds process (distributed mode). */
export const refundsConfigSpec = {
  ...serviceProcessFields({ service: "refunds", port: 50053, managementPort: 9463 }),
  ...eventBusFields,
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
