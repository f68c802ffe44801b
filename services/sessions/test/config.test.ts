import { ConfigError, generateServiceAuthKeys, readConfig } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { sessionsConfigSpec } from "../src/config.js";

/** Service credentials are required (issue 16): every case below has them unless it tests their absence. */
const authEnv = { GATEWAY_SERVICE_AUTH_KEYS: generateServiceAuthKeys().sessions };

describe("sessions configuration", () => {
  it("when only MONGODB_URL and NATS_URL are set, then every other value has its documented default", () => {
    expect(
      readConfig(sessionsConfigSpec, {
        ...authEnv,
        MONGODB_URL: "mongodb://db:27017",
        NATS_URL: "nats://nats:4222",
      }),
    ).toEqual({
      port: 50052,
      serviceAuthKeys: expect.objectContaining({ self: "sessions" }),
      jetstreamReplicas: 1,
      grpcReflection: false,
      managementPort: 9462,
      host: "127.0.0.1",
      mongodbUrl: "mongodb://db:27017",
      mongodbDatabase: "gateway_sessions",
      natsUrl: "nats://nats:4222",
      accountsUrl: "http://127.0.0.1:50051",
      publicBaseUrl: "http://localhost:8080",
      sessionLifetimeMs: 24 * 3_600_000,
      checkoutLinkLifetimeMs: 30 * 60_000,
      checkoutLinkLimit: 5,
      outboxPollIntervalMs: 1_000,
      acquirerTimeoutMs: 15_000,
      sweepIntervalMs: 1_000,
      reconcileIntervalMs: 60_000,
      sweepLeaseMs: 120_000,
      logLevel: "info",
      shutdownTimeoutMs: 20_000,
    });
  });

  it("when the payment settings are set, then they are read", () => {
    const config = readConfig(sessionsConfigSpec, {
      ...authEnv,
      MONGODB_URL: "mongodb://db:27017",
      NATS_URL: "nats://a:4222,nats://b:4222",
      GATEWAY_CHECKOUT_LINK_LIMIT: "2",
      GATEWAY_OUTBOX_POLL_INTERVAL: "50ms",
      GATEWAY_ACQUIRER_TIMEOUT: "3s",
    });
    expect([
      config.natsUrl,
      config.checkoutLinkLimit,
      config.outboxPollIntervalMs,
      config.acquirerTimeoutMs,
    ]).toEqual(["nats://a:4222,nats://b:4222", 2, 50, 3000]);
  });

  it("when lifetimes and the public URL are set, then they are read", () => {
    const config = readConfig(sessionsConfigSpec, {
      ...authEnv,
      MONGODB_URL: "mongodb://db:27017",
      NATS_URL: "nats://nats:4222",
      GATEWAY_PUBLIC_URL: "https://pay.example.com/",
      GATEWAY_SESSION_LIFETIME: "2s",
      GATEWAY_CHECKOUT_LINK_LIFETIME: "250ms",
    });
    expect(config.publicBaseUrl).toBe("https://pay.example.com");
    expect(config.sessionLifetimeMs).toBe(2000);
    expect(config.checkoutLinkLifetimeMs).toBe(250);
  });

  it("when values are missing or wrong, then one error names every variable and hides the database URL", () => {
    let message = "";
    try {
      readConfig(sessionsConfigSpec, {
        ...authEnv,
        MONGODB_URL: "postgres://user:hunter2@db",
        NATS_URL: "http://user:s3cret@nats",
        GATEWAY_SESSION_LIFETIME: "0s",
        GATEWAY_PUBLIC_URL: "ftp://example.com",
        GATEWAY_CHECKOUT_LINK_LIMIT: "0",
        GATEWAY_OUTBOX_POLL_INTERVAL: "0ms",
        PORT: "70000",
      });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    for (const name of [
      "MONGODB_URL",
      "NATS_URL",
      "GATEWAY_SESSION_LIFETIME",
      "GATEWAY_PUBLIC_URL",
      "GATEWAY_CHECKOUT_LINK_LIMIT",
      "GATEWAY_OUTBOX_POLL_INTERVAL",
      "PORT",
    ]) {
      expect(message).toContain(name);
    }
    expect(message).not.toContain("hunter2");
    expect(message).not.toContain("s3cret");
    expect(() => readConfig(sessionsConfigSpec, { ...authEnv, ...authEnv })).toThrow(
      /MONGODB_URL is required/,
    );
    expect(() => readConfig(sessionsConfigSpec, { ...authEnv, ...authEnv })).toThrow(/NATS_URL is required/);
  });
});
