import {
  acquirerTimeoutField,
  type ConfigOf,
  eventBusFields,
  outboxPollIntervalField,
  parse,
  serviceProcessFields,
  serviceUrlField,
  shutdownConfigSpec,
} from "@gateway/platform";

/** Environment of the refunds process (distributed mode). */
export const refundsConfigSpec = {
  ...serviceProcessFields({ service: "refunds", port: 50053, managementPort: 9463 }),
  ...eventBusFields,
  accountsUrl: serviceUrlField("accounts"),
  sessionsUrl: serviceUrlField("sessions"),
  acquirerTimeoutMs: acquirerTimeoutField,
  outboxPollIntervalMs: outboxPollIntervalField("refund"),
  logLevel: { env: "LOG_LEVEL", description: "log level", default: "info", parse: parse.logLevel },
  ...shutdownConfigSpec,
};

export type RefundsConfig = ConfigOf<typeof refundsConfigSpec>;
