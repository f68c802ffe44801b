import { ConfigError } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { readEdgeConfig } from "../src/config.js";

describe("readEdgeConfig", () => {
  it("uses the documented defaults", () => {
    expect(readEdgeConfig({})).toEqual({
      port: 8080,
      managementPort: 9460,
      host: "127.0.0.1",
      accountsUrl: "http://127.0.0.1:50051",
      sessionsUrl: "http://127.0.0.1:50052",
      refundsUrl: "http://127.0.0.1:50053",
      webhooksUrl: "http://127.0.0.1:50054",
      publicUrl: "http://localhost:8080",
      errorsUrl: "http://localhost:8080/errors",
      adminToken: undefined,
      maxBodyBytes: 262144,
      authCacheTtlMs: 5000,
      logLevel: "info",
    });
  });

  it("derives the errors URL from the public URL unless it is given", () => {
    expect(readEdgeConfig({ GATEWAY_PUBLIC_URL: "https://pay.example.com/" }).errorsUrl).toBe("https://pay.example.com/errors");
    expect(readEdgeConfig({ GATEWAY_ERRORS_URL: "https://docs.example.com/problems" }).errorsUrl).toBe("https://docs.example.com/problems");
  });

  it("reads every variable", () => {
    const config = readEdgeConfig({
      PORT: "9000",
      HOST: "0.0.0.0",
      GATEWAY_ADMIN_TOKEN: "s3cret-token",
      GATEWAY_MAX_BODY_BYTES: "1024",
      GATEWAY_AUTH_CACHE_TTL: "250ms",
      LOG_LEVEL: "debug",
    });
    expect(config).toMatchObject({ port: 9000, host: "0.0.0.0", adminToken: "s3cret-token", maxBodyBytes: 1024, authCacheTtlMs: 250, logLevel: "debug" });
  });

  it("refuses bad values naming every variable, without echoing secrets", () => {
    let error: unknown;
    try {
      readEdgeConfig({ PORT: "http", GATEWAY_MAX_BODY_BYTES: "0", GATEWAY_AUTH_CACHE_TTL: "5 seconds", ACCOUNTS_URL: "not a url", LOG_LEVEL: "loud" });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of ["PORT", "GATEWAY_MAX_BODY_BYTES", "GATEWAY_AUTH_CACHE_TTL", "ACCOUNTS_URL", "LOG_LEVEL"]) expect(message).toContain(name);
  });
});
