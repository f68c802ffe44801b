import { randomBytes } from "node:crypto";
import { ConfigError, generateServiceAuthKeys, readConfig } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import {
  addressPolicyFromConfig,
  webhookDeliveryConfigSpec,
  webhooksConfigSpec,
  webhooksSettingsFromConfig,
} from "../src/config.js";

const KEY = randomBytes(32).toString("base64");
const REQUIRED = {
  MONGODB_URL: "mongodb://db.internal:27017",
  NATS_URL: "nats://nats.internal:4222",
  GATEWAY_SECRETS_KEY: KEY,
  GATEWAY_SERVICE_AUTH_KEYS: generateServiceAuthKeys().webhooks,
};

function configError(env: Record<string, string>): string {
  try {
    readConfig(webhooksConfigSpec, env);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error("expected a ConfigError");
}

describe("webhooks configuration", () => {
  it("when only the required variables are set, then the spec's delivery values are the defaults", () => {
    const config = readConfig(webhooksConfigSpec, REQUIRED);
    expect(config).toMatchObject({
      port: 50054,
      managementPort: 9464,
      host: "127.0.0.1",
      mongodbDatabase: "gateway_webhooks",
      timeoutMs: 10_000,
      retryScheduleMs: [60_000, 7_200_000, 86_400_000],
      secretOverlapMs: 86_400_000,
      allowPrivate: false,
      allowedCidrs: [],
      pollIntervalMs: 1_000,
      concurrency: 16,
      endpointConcurrency: 8,
    });
    expect(config.secretsKey).toHaveLength(32);
    expect(config.previousSecretsKeys).toBeUndefined();
    expect(webhooksSettingsFromConfig(config)).toEqual({
      timeoutMs: 10_000,
      retryScheduleMs: [60_000, 7_200_000, 86_400_000],
      secretOverlapMs: 86_400_000,
      pollIntervalMs: 1_000,
      concurrency: 16,
      endpointConcurrency: 8,
    });
    expect(addressPolicyFromConfig(config)).toEqual({ allowPrivate: false, allowCidrs: [] });
  });

  it("when embedded mode reads only the delivery settings, then nothing else is required", () => {
    const delivery = readConfig(webhookDeliveryConfigSpec, { GATEWAY_WEBHOOK_ALLOW_PRIVATE: "true" });
    expect(addressPolicyFromConfig(delivery)).toEqual({ allowPrivate: true, allowCidrs: [] });
  });

  it("when tests configure milliseconds, private delivery and an allow-list, then they are read", () => {
    const config = readConfig(webhooksConfigSpec, {
      ...REQUIRED,
      GATEWAY_WEBHOOK_RETRY_SCHEDULE: "50ms,100ms,200ms",
      GATEWAY_WEBHOOK_TIMEOUT: "250ms",
      GATEWAY_WEBHOOK_ALLOW_PRIVATE: "1",
      GATEWAY_WEBHOOK_ALLOWED_CIDRS: "10.20.0.0/16, fd00::/8",
      GATEWAY_SECRETS_PREVIOUS_KEYS: `${randomBytes(32).toString("base64")},${randomBytes(32).toString("base64")}`,
    });
    expect(config).toMatchObject({
      retryScheduleMs: [50, 100, 200],
      timeoutMs: 250,
      allowPrivate: true,
      allowedCidrs: ["10.20.0.0/16", "fd00::/8"],
    });
    expect(config.previousSecretsKeys).toHaveLength(2);
    expect(
      readConfig(webhooksConfigSpec, { ...REQUIRED, GATEWAY_WEBHOOK_RETRY_SCHEDULE: "none" }).retryScheduleMs,
    ).toEqual([]);
  });

  it("when variables are missing or wrong, then one error names each, without echoing secrets", () => {
    const message = configError({
      GATEWAY_SECRETS_KEY: "too-short-key-value",
      GATEWAY_WEBHOOK_RETRY_SCHEDULE: "1m,soon",
      GATEWAY_WEBHOOK_ALLOWED_CIDRS: "10.0.0.0/33",
      GATEWAY_WEBHOOK_TIMEOUT: "0s",
    });
    expect(message).toContain("MONGODB_URL is required");
    expect(message).toContain("NATS_URL is required");
    expect(message).toContain("GATEWAY_SECRETS_KEY is invalid");
    expect(message).not.toContain("too-short-key-value");
    expect(message).toMatch(/GATEWAY_WEBHOOK_RETRY_SCHEDULE is invalid: 'soon' is not a duration/);
    expect(message).toMatch(/GATEWAY_WEBHOOK_ALLOWED_CIDRS is invalid: Not a CIDR block/);
    expect(message).toMatch(/GATEWAY_WEBHOOK_TIMEOUT is invalid: must be longer than zero/);
  });
});
