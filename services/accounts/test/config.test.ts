import { ConfigError, generateServiceAuthKeys, readConfig } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { accountsConfigSpec, demoTerminalFromConfig } from "../src/config.js";

/** Service credentials are required (issue 16): every case below has them unless it tests their absence. */
const authEnv = { GATEWAY_SERVICE_AUTH_KEYS: generateServiceAuthKeys().accounts };

describe("accounts configuration", () => {
  it("when only MONGODB_URL is set, then every other value has its default", () => {
    expect(readConfig(accountsConfigSpec, { ...authEnv, MONGODB_URL: "mongodb://127.0.0.1:27017" })).toEqual({
      port: 50051,
      serviceAuthKeys: expect.objectContaining({ self: "accounts" }),
      grpcReflection: false,
      managementPort: 9461,
      host: "127.0.0.1",
      mongodbUrl: "mongodb://127.0.0.1:27017",
      mongodbDatabase: "gateway_accounts",
      demo: true,
      demoTestKey: undefined,
      secretsKey: undefined,
      secretsPreviousKeys: undefined,
      publicUrl: "http://localhost:8080",
      demoTerminalUrl: undefined,
      demoTerminalUsername: "sim-merchant",
      demoTerminalPassword: "sim-password",
      logLevel: "info",
      shutdownTimeoutMs: 20_000,
    });
  });

  it("when nothing says otherwise, then the demo terminal is the EPG simulator behind the public URL, with its default credentials", () => {
    const config = readConfig(accountsConfigSpec, {
      ...authEnv,
      MONGODB_URL: "mongodb://db",
      GATEWAY_PUBLIC_URL: "https://pay.example.com/",
    });
    expect(demoTerminalFromConfig(config)).toEqual({
      baseUrl: "https://pay.example.com/epg/rest",
      username: "sim-merchant",
      password: "sim-password",
    });
  });

  it("when the demo terminal URL and simulator credentials are given, then they are used", () => {
    const config = readConfig(accountsConfigSpec, {
      ...authEnv,
      MONGODB_URL: "mongodb://db",
      GATEWAY_DEMO_TERMINAL_URL: "http://epg-simulator:50060/epg/rest",
      EPG_SIM_USERNAME: "demo-user",
      EPG_SIM_PASSWORD: "demo-password",
    });
    expect(demoTerminalFromConfig(config)).toEqual({
      baseUrl: "http://epg-simulator:50060/epg/rest",
      username: "demo-user",
      password: "demo-password",
    });
  });

  it("when the demo terminal URL is not a URL, then the error names it", () => {
    expect(() =>
      readConfig(accountsConfigSpec, {
        ...authEnv,
        MONGODB_URL: "mongodb://db",
        GATEWAY_DEMO_TERMINAL_URL: "not a url",
      }),
    ).toThrow(/GATEWAY_DEMO_TERMINAL_URL is invalid/);
  });

  it("when MONGODB_URL is missing, then the error names it", () => {
    expect(() => readConfig(accountsConfigSpec, { ...authEnv })).toThrow(ConfigError);
    expect(() => readConfig(accountsConfigSpec, { ...authEnv })).toThrow(/MONGODB_URL is required/);
  });

  it("when values are bad, then every problem is listed and the Mongo URL is not echoed", () => {
    const env = {
      MONGODB_URL: "http://user:hunter2@db",
      PORT: "70000",
      GATEWAY_DEMO: "maybe",
      LOG_LEVEL: "loud",
    };
    let message = "";
    try {
      readConfig(accountsConfigSpec, env);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/MONGODB_URL is invalid/);
    expect(message).toMatch(/PORT is invalid/);
    expect(message).toMatch(/GATEWAY_DEMO is invalid/);
    expect(message).toMatch(/LOG_LEVEL is invalid/);
    expect(message).not.toContain("hunter2");
  });

  it("when the demo is switched off and a key is given, then both are read", () => {
    const key = `sk_test_${"A".repeat(44)}`;
    const config = readConfig(accountsConfigSpec, {
      ...authEnv,
      MONGODB_URL: "mongodb://db",
      GATEWAY_DEMO: "0",
      GATEWAY_DEMO_TEST_KEY: key,
    });
    expect(config.demo).toBe(false);
    expect(config.demoTestKey).toBe(key);
  });
});
