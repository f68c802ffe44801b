import { ConfigError, generateServiceAuthKeys } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { readEdgeConfig } from "../src/config.js";

/** Service credentials are required (issue 16): every case below has them unless it tests their absence. */
const authEnv = { GATEWAY_SERVICE_AUTH_KEYS: generateServiceAuthKeys().edge };

describe("readEdgeConfig", () => {
  it("uses the documented defaults", () => {
    expect(readEdgeConfig({ ...authEnv })).toEqual({
      port: 8080,
      serviceAuthKeys: expect.objectContaining({ self: "edge" }),
      jetstreamReplicas: 1,
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
      shutdownTimeoutMs: 20_000,
    });
  });

  it("derives the errors URL from the public URL unless it is given", () => {
    expect(readEdgeConfig({ ...authEnv, GATEWAY_PUBLIC_URL: "https://pay.example.com/" }).errorsUrl).toBe(
      "https://pay.example.com/errors",
    );
    expect(
      readEdgeConfig({ ...authEnv, GATEWAY_ERRORS_URL: "https://docs.example.com/problems" }).errorsUrl,
    ).toBe("https://docs.example.com/problems");
  });

  // Issue 15 item 8: the default public URL used to be http://localhost:8080 whatever PORT was.
  it("defaults the public URL (and the errors URL) to where the edge listens", () => {
    expect(readEdgeConfig({ ...authEnv, PORT: "3000" })).toMatchObject({
      publicUrl: "http://localhost:3000",
      errorsUrl: "http://localhost:3000/errors",
    });
    expect(readEdgeConfig({ ...authEnv, PORT: "3000", HOST: "0.0.0.0" }).publicUrl).toBe(
      "http://localhost:3000",
    );
    expect(readEdgeConfig({ ...authEnv, PORT: "3000", HOST: "pay.internal" }).publicUrl).toBe(
      "http://pay.internal:3000",
    );
    expect(readEdgeConfig({ ...authEnv, PORT: "3000", HOST: "fd00::5" }).publicUrl).toBe(
      "http://[fd00::5]:3000",
    );
    expect(
      readEdgeConfig({ ...authEnv, PORT: "3000", GATEWAY_PUBLIC_URL: "https://pay.example.com" }).publicUrl,
    ).toBe("https://pay.example.com");
    expect(() => readEdgeConfig({ ...authEnv, PORT: "0" })).toThrow(ConfigError);
  });

  it("reads every variable", () => {
    const config = readEdgeConfig({
      ...authEnv,
      PORT: "9000",
      HOST: "0.0.0.0",
      GATEWAY_ADMIN_TOKEN: "s3cret-token",
      GATEWAY_MAX_BODY_BYTES: "1024",
      GATEWAY_AUTH_CACHE_TTL: "250ms",
      LOG_LEVEL: "debug",
    });
    expect(config).toMatchObject({
      port: 9000,
      host: "0.0.0.0",
      adminToken: "s3cret-token",
      maxBodyBytes: 1024,
      authCacheTtlMs: 250,
      logLevel: "debug",
    });
  });

  it("refuses bad values naming every variable, without echoing secrets", () => {
    let error: unknown;
    try {
      readEdgeConfig({
        ...authEnv,
        PORT: "http",
        GATEWAY_MAX_BODY_BYTES: "0",
        GATEWAY_AUTH_CACHE_TTL: "5 seconds",
        ACCOUNTS_URL: "not a url",
        LOG_LEVEL: "loud",
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of [
      "PORT",
      "GATEWAY_MAX_BODY_BYTES",
      "GATEWAY_AUTH_CACHE_TTL",
      "ACCOUNTS_URL",
      "LOG_LEVEL",
    ])
      expect(message).toContain(name);
  });
});
