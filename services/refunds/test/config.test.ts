import { ConfigError, generateServiceAuthKeys, readConfig } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { refundsConfigSpec } from "../src/config.js";

/** Service credentials are required (issue 16): every case below has them unless it tests their absence. */
const authEnv = { GATEWAY_SERVICE_AUTH_KEYS: generateServiceAuthKeys().refunds };

describe("refunds configuration", () => {
  it("when only MONGODB_URL and NATS_URL are set, then every other value has its documented default", () => {
    expect(
      readConfig(refundsConfigSpec, {
        ...authEnv,
        MONGODB_URL: "mongodb://db:27017",
        NATS_URL: "nats://nats:4222",
      }),
    ).toEqual({
      port: 50053,
      serviceAuthKeys: expect.objectContaining({ self: "refunds" }),
      jetstreamReplicas: 1,
      grpcReflection: false,
      managementPort: 9463,
      host: "127.0.0.1",
      mongodbUrl: "mongodb://db:27017",
      mongodbDatabase: "gateway_refunds",
      natsUrl: "nats://nats:4222",
      accountsUrl: "http://127.0.0.1:50051",
      sessionsUrl: "http://127.0.0.1:50052",
      acquirerTimeoutMs: 15_000,
      outboxPollIntervalMs: 1_000,
      logLevel: "info",
      shutdownTimeoutMs: 20_000,
    });
  });

  it("when the addresses and the acquirer timeout are set, then they are read", () => {
    const config = readConfig(refundsConfigSpec, {
      ...authEnv,
      MONGODB_URL: "mongodb://db:27017",
      NATS_URL: "nats://a:4222,nats://b:4222",
      GATEWAY_OUTBOX_POLL_INTERVAL: "50ms",
      PORT: "6000",
      ACCOUNTS_URL: "http://accounts:50051",
      SESSIONS_URL: "http://sessions:50052",
      GATEWAY_ACQUIRER_TIMEOUT: "3s",
    });
    expect([config.port, config.accountsUrl, config.sessionsUrl, config.acquirerTimeoutMs]).toEqual([
      6000,
      "http://accounts:50051",
      "http://sessions:50052",
      3000,
    ]);
    expect([config.natsUrl, config.outboxPollIntervalMs]).toEqual(["nats://a:4222,nats://b:4222", 50]);
  });

  it("when MONGODB_URL or NATS_URL is missing or values are bad, then start-up fails without echoing the secrets", () => {
    expect(() => readConfig(refundsConfigSpec, { ...authEnv, ...authEnv })).toThrow(ConfigError);
    expect(() => readConfig(refundsConfigSpec, { ...authEnv, MONGODB_URL: "mongodb://db:27017" })).toThrow(
      /NATS_URL/,
    );
    let message = "";
    try {
      readConfig(refundsConfigSpec, {
        ...authEnv,
        MONGODB_URL: "postgres://user:hunter2@db",
        NATS_URL: "http://user:sesame@nats",
        GATEWAY_ACQUIRER_TIMEOUT: "0s",
        GATEWAY_OUTBOX_POLL_INTERVAL: "0ms",
      });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/MONGODB_URL/);
    expect(message).toMatch(/NATS_URL/);
    expect(message).toMatch(/GATEWAY_ACQUIRER_TIMEOUT/);
    expect(message).toMatch(/GATEWAY_OUTBOX_POLL_INTERVAL/);
    expect(message).not.toMatch(/hunter2/);
    expect(message).not.toMatch(/sesame/);
  });
});
