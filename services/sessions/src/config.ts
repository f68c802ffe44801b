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

/** An absolute http(s) base address, without a trailing slash. */
function publicUrl(raw: string): string {
  const url = parse.url(raw);
  if (!/^https?:\/\//.test(url)) throw new Error("must be an http:// or https:// URL");
  return url;
}

/** Environment of the sessions process (distributed mode). */
export const sessionsConfigSpec = {
  ...serviceProcessFields({ service: "sessions", port: 50052, managementPort: 9462 }),
  ...eventBusFields,
  accountsUrl: serviceUrlField("accounts"),
  publicBaseUrl: {
    env: "GATEWAY_PUBLIC_URL",
    description: "public base address of the gateway; checkout links are <it>/checkout/<token>",
    default: "http://localhost:8080",
    parse: publicUrl,
  },
  sessionLifetimeMs: {
    env: "GATEWAY_SESSION_LIFETIME",
    description: "session lifetime",
    default: "24h",
    parse: parse.positiveDuration,
  },
  checkoutLinkLifetimeMs: {
    env: "GATEWAY_CHECKOUT_LINK_LIFETIME",
    description: "lifetime of one hosted checkout link",
    default: "30m",
    parse: parse.positiveDuration,
  },
  checkoutLinkLimit: {
    env: "GATEWAY_CHECKOUT_LINK_LIMIT",
    description: "most unexpired checkout links one session may have at once",
    default: "5",
    parse: parse.positiveInt,
  },
  outboxPollIntervalMs: outboxPollIntervalField("session"),
  acquirerTimeoutMs: acquirerTimeoutField,
  sweepIntervalMs: {
    env: "GATEWAY_SWEEP_INTERVAL",
    description:
      "pause between looks for sessions to expire, links to announce and attempts to reconcile (up to 5x this while nothing is due)",
    default: "1s",
    parse: parse.positiveDuration,
  },
  reconcileIntervalMs: {
    env: "GATEWAY_RECONCILE_INTERVAL",
    description: "pause between re-checks of an unsettled payment attempt with the acquirer",
    default: "1m",
    parse: parse.positiveDuration,
  },
  sweepLeaseMs: {
    env: "GATEWAY_SWEEP_LEASE",
    description:
      "how long a replica holds one session's sweep; after a crash another takes over once it ends",
    default: "2m",
    parse: parse.positiveDuration,
  },
  logLevel: { env: "LOG_LEVEL", description: "log level", default: "info", parse: parse.logLevel },
  ...shutdownConfigSpec,
};

export type SessionsConfig = ConfigOf<typeof sessionsConfigSpec>;
