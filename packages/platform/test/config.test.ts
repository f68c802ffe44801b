import { describe, expect, it } from "vitest";
import { parseDuration } from "../src/config/durations.js";
import { ConfigError, parse, readConfig } from "../src/config/read-config.js";

const spec = {
  port: { env: "PORT", description: "listen port", default: "50051", parse: parse.port },
  mongoUrl: { env: "MONGODB_URL", description: "MongoDB connection string", parse: parse.url },
  adminToken: {
    env: "ADMIN_TOKEN",
    description: "admin API token",
    secret: true,
    parse: (raw: string) => {
      if (raw.length < 32) throw new Error(`'${raw}' is shorter than 32 characters`);
      return raw;
    },
  },
  retryAfter: { env: "RETRY_AFTER", description: "retry delay", default: "10s", parse: parse.duration },
  otel: { env: "OTEL_ENDPOINT", description: "collector", optional: true as const, parse: parse.url },
};

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    readConfig(spec, env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error("readConfig accepted a bad configuration");
}

describe("readConfig", () => {
  it("when every variable is fine, then it returns parsed values with defaults and unset optionals", () => {
    const config = readConfig(spec, { MONGODB_URL: "mongodb://db:27017/", ADMIN_TOKEN: "x".repeat(40) });
    expect(config).toEqual({
      port: 50051,
      mongoUrl: "mongodb://db:27017",
      adminToken: "x".repeat(40),
      retryAfter: 10_000,
      otel: undefined,
    });
  });

  it("when several variables are bad or missing, then one error names every one of them", () => {
    const err = configError({ PORT: "99999", RETRY_AFTER: "soon", ADMIN_TOKEN: "short-secret-value" });
    expect(err.message).toContain("PORT is invalid");
    expect(err.message).toContain("MONGODB_URL is required");
    expect(err.message).toContain("RETRY_AFTER is invalid");
    expect(err.message).toContain("ADMIN_TOKEN is invalid");
  });

  it("when a secret variable is invalid, then its value never appears in the error", () => {
    const err = configError({ MONGODB_URL: "mongodb://db", ADMIN_TOKEN: "short-secret-value" });
    expect(err.message).toContain("ADMIN_TOKEN");
    expect(err.message).not.toContain("short-secret-value");
  });

  it("when a variable is set but empty, then it counts as missing", () => {
    expect(configError({ MONGODB_URL: "", ADMIN_TOKEN: "x".repeat(40) }).message).toContain(
      "MONGODB_URL is required",
    );
  });
});

describe("parseDuration", () => {
  it.each([
    ["250ms", 250],
    ["10s", 10_000],
    ["30m", 1_800_000],
    ["24h", 86_400_000],
    ["2d", 172_800_000],
    [" 5s ", 5_000],
    ["0s", 0],
  ])("when given %s, then it is %d ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(["", "10", "1.5s", "-1s", "10 s", "5w", "s", "99999999999999999d"])(
    "when given '%s', then it throws",
    (text) => {
      expect(() => parseDuration(text)).toThrow();
    },
  );

  it("when a list is given, then each part is parsed", () => {
    expect(parse.durationList("1m,5m,30m")).toEqual([60_000, 300_000, 1_800_000]);
  });
});
