import { ConfigError, readConfig } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { refundsConfigSpec } from "../src/config.js";

describe("refunds configuration", () => {
  it("when only MONGODB_URL is set, then every other value has its documented default", () => {
    expect(readConfig(refundsConfigSpec, { MONGODB_URL: "mongodb://db:27017" })).toEqual({
      port: 50053,
      host: "127.0.0.1",
      mongodbUrl: "mongodb://db:27017",
      mongodbDatabase: "gateway_refunds",
      accountsUrl: "http://127.0.0.1:50051",
      sessionsUrl: "http://127.0.0.1:50052",
      acquirerTimeoutMs: 15_000,
      logLevel: "info",
    });
  });

  it("when the addresses and the acquirer timeout are set, then they are read", () => {
    const config = readConfig(refundsConfigSpec, {
      MONGODB_URL: "mongodb://db:27017",
      PORT: "6000",
      ACCOUNTS_URL: "http://accounts:50051",
      SESSIONS_URL: "http://sessions:50052",
      GATEWAY_ACQUIRER_TIMEOUT: "3s",
    });
    expect([config.port, config.accountsUrl, config.sessionsUrl, config.acquirerTimeoutMs]).toEqual([6000, "http://accounts:50051", "http://sessions:50052", 3000]);
  });

  it("when MONGODB_URL is missing or values are bad, then start-up fails without echoing the secret", () => {
    expect(() => readConfig(refundsConfigSpec, {})).toThrow(ConfigError);
    let message = "";
    try {
      readConfig(refundsConfigSpec, { MONGODB_URL: "postgres://user:hunter2@db", GATEWAY_ACQUIRER_TIMEOUT: "0s" });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/MONGODB_URL/);
    expect(message).toMatch(/GATEWAY_ACQUIRER_TIMEOUT/);
    expect(message).not.toMatch(/hunter2/);
  });
});
