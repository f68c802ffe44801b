import { ConfigError, readConfig } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { sessionsConfigSpec } from "../src/config.js";

describe("sessions configuration", () => {
  it("when only MONGODB_URL is set, then every other value has its documented default", () => {
    expect(readConfig(sessionsConfigSpec, { MONGODB_URL: "mongodb://db:27017" })).toEqual({
      port: 50052,
      host: "127.0.0.1",
      mongodbUrl: "mongodb://db:27017",
      mongodbDatabase: "gateway_sessions",
      accountsUrl: "http://127.0.0.1:50051",
      publicBaseUrl: "http://localhost:8080",
      sessionLifetimeMs: 24 * 3_600_000,
      checkoutLinkLifetimeMs: 30 * 60_000,
      logLevel: "info",
    });
  });

  it("when lifetimes and the public URL are set, then they are read", () => {
    const config = readConfig(sessionsConfigSpec, {
      MONGODB_URL: "mongodb://db:27017",
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
        MONGODB_URL: "postgres://user:hunter2@db",
        GATEWAY_SESSION_LIFETIME: "0s",
        GATEWAY_PUBLIC_URL: "ftp://example.com",
        PORT: "70000",
      });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    for (const name of ["MONGODB_URL", "GATEWAY_SESSION_LIFETIME", "GATEWAY_PUBLIC_URL", "PORT"]) expect(message).toContain(name);
    expect(message).not.toContain("hunter2");
    expect(() => readConfig(sessionsConfigSpec, {})).toThrow(/MONGODB_URL is required/);
  });
});
