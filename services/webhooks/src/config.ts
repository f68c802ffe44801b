import {
  type ConfigOf,
  eventBusFields,
  parse,
  parseSecretsKey,
  parseSecretsKeyList,
  serviceProcessFields,
  shutdownConfigSpec,
} from "@gateway/platform";
import { type AddressPolicy, assertAddressPolicy } from "./adapters/http/index.js";
import type { WebhooksSettings } from "./app/webhooks-settings.js";

/** "1m,2h,24h" (the waits before retry 1, 2, 3); "" or "none" for no retries. */
function retrySchedule(raw: string): number[] {
  if (/^\s*none\s*$/i.test(raw)) return [];
  return parse.durationList(raw);
}

function cidrList(raw: string): string[] {
  const cidrs = raw
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  assertAddressPolicy({ allowPrivate: false, allowCidrs: cidrs });
  return cidrs;
}

/**
 * The delivery settings, shared by the webhooks process and embedded mode (spread this spec into
 * the embedded launcher's, then `webhooksSettingsFromConfig`).
 */
export const webhookDeliveryConfigSpec = {
  timeoutMs: {
    env: "GATEWAY_WEBHOOK_TIMEOUT",
    description: "timeout of one webhook POST",
    default: "10s",
    parse: parse.positiveDuration,
  },
  retryScheduleMs: {
    env: "GATEWAY_WEBHOOK_RETRY_SCHEDULE",
    description: "waits before each webhook retry after a failure, comma-separated (none: no retries)",
    default: "1m,2h,24h",
    parse: retrySchedule,
  },
  secretOverlapMs: {
    env: "GATEWAY_WEBHOOK_SECRET_OVERLAP",
    description: "how long a rotated-out webhook secret keeps signing deliveries",
    default: "24h",
    parse: parse.duration,
  },
  allowPrivate: {
    env: "GATEWAY_WEBHOOK_ALLOW_PRIVATE",
    description: "deliver webhooks to private, loopback and reserved addresses (test/development only)",
    default: "false",
    parse: parse.boolean,
  },
  allowedCidrs: {
    env: "GATEWAY_WEBHOOK_ALLOWED_CIDRS",
    description: "private networks webhooks may still reach, comma-separated CIDRs (e.g. 10.20.0.0/16)",
    default: "",
    parse: cidrList,
  },
  pollIntervalMs: {
    env: "GATEWAY_WEBHOOK_POLL_INTERVAL",
    description:
      "how often an idle webhooks dispatcher looks for due retries (up to 5x this while nothing is found)",
    default: "1s",
    parse: parse.positiveDuration,
  },
  concurrency: {
    env: "GATEWAY_WEBHOOK_CONCURRENCY",
    description: "webhook POSTs in flight at once per process",
    default: "16",
    parse: parse.positiveInt,
  },
  endpointConcurrency: {
    env: "GATEWAY_WEBHOOK_ENDPOINT_CONCURRENCY",
    description: "webhook POSTs in flight at once per process to one URL",
    default: "8",
    parse: parse.positiveInt,
  },
};

/** Environment of the webhooks process (distributed mode). */
export const webhooksConfigSpec = {
  ...serviceProcessFields({ service: "webhooks", port: 50054, managementPort: 9464 }),
  ...eventBusFields,
  ...webhookDeliveryConfigSpec,
  secretsKey: {
    env: "GATEWAY_SECRETS_KEY",
    description: "key encrypting stored secrets: base64 of 32 random bytes (openssl rand -base64 32)",
    secret: true,
    parse: (raw: string) => parseSecretsKey(raw),
  },
  previousSecretsKeys: {
    env: "GATEWAY_SECRETS_PREVIOUS_KEYS",
    description: "earlier GATEWAY_SECRETS_KEY values still able to decrypt, comma-separated",
    optional: true as const,
    secret: true,
    parse: (raw: string) => parseSecretsKeyList(raw),
  },
  logLevel: { env: "LOG_LEVEL", description: "log level", default: "info", parse: parse.logLevel },
  ...shutdownConfigSpec,
};

export type WebhooksConfig = ConfigOf<typeof webhooksConfigSpec>;

export type WebhookDeliveryConfig = ConfigOf<typeof webhookDeliveryConfigSpec>;

/** The runtime's settings from the delivery configuration. */
export function webhooksSettingsFromConfig(config: WebhookDeliveryConfig): WebhooksSettings {
  return {
    timeoutMs: config.timeoutMs,
    retryScheduleMs: config.retryScheduleMs,
    secretOverlapMs: config.secretOverlapMs,
    pollIntervalMs: config.pollIntervalMs,
    concurrency: config.concurrency,
    endpointConcurrency: config.endpointConcurrency,
  };
}

/** The SSRF policy of the HTTP deliverer from the delivery configuration. */
export function addressPolicyFromConfig(config: WebhookDeliveryConfig): AddressPolicy {
  return { allowPrivate: config.allowPrivate, allowCidrs: config.allowedCidrs };
}
