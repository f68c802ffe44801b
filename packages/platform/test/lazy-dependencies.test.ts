import { spawn } from "node:child_process";
import {
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
} from "mongodb";
import { describe, expect, it } from "vitest";
import { isMongoUnavailable } from "../src/mongo.js";

// Issue 18 item 4: processes that never use a dependency do not pay its memory. The edge and the
// EPG simulator use @gateway/platform but no database, so importing platform must not load the
// MongoDB driver; without an OTLP endpoint, no trace exporter is loaded.
const PLATFORM = new URL("../src/index.ts", import.meta.url).href;

/** Runs `body` in a fresh Node process (tsx) and returns which of `packages` it loaded. */
function loadedAfter(body: string, packages: string[], env: Record<string, string> = {}): Promise<string[]> {
  const script = `
    import { createRequire } from "node:module";
    const platform = await import(${JSON.stringify(PLATFORM)});
    ${body}
    // CommonJS packages (both are) land in the CommonJS cache, even when imported from ESM.
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    const names = ${JSON.stringify(packages)};
    console.log(JSON.stringify(names.filter((name) => loaded.some((file) => file.includes("/node_modules/" + name + "/")))));
  `;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += String(chunk)));
  child.stderr.on("data", (chunk: Buffer) => (stderr += String(chunk)));
  return new Promise((resolve, reject) => {
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`child exited ${code}: ${stderr}`));
      resolve(JSON.parse(stdout.trim().split("\n").at(-1)!) as string[]);
    });
  });
}

describe("dependencies loaded on first use", () => {
  it("importing @gateway/platform and starting telemetry without an OTLP endpoint loads neither the MongoDB driver nor the OTLP exporter", async () => {
    const loaded = await loadedAfter(`platform.initTelemetry({ serviceName: "lazy-test" });`, [
      "mongodb",
      "@opentelemetry/exporter-trace-otlp-http",
    ]);
    expect(loaded).toEqual([]);
  });

  it("with OTEL_EXPORTER_OTLP_ENDPOINT set, telemetry loads the exporter", async () => {
    const loaded = await loadedAfter(
      `const t = platform.initTelemetry({ serviceName: "lazy-test" }); await t.shutdown();`,
      ["@opentelemetry/exporter-trace-otlp-http"],
      { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" },
    );
    expect(loaded).toEqual(["@opentelemetry/exporter-trace-otlp-http"]);
  });

  it("connectMongo loads the driver when called", async () => {
    // The driver refuses the URL once loaded: no server needed.
    const loaded = await loadedAfter(
      `await platform.connectMongo("not-a-mongodb-url", "lazy-test").catch(() => {});`,
      ["mongodb"],
    );
    expect(loaded).toEqual(["mongodb"]);
  });
});

describe("isMongoUnavailable, without importing the driver's classes", () => {
  it("recognises the driver's connectivity errors, subclasses included", () => {
    expect(isMongoUnavailable(new MongoNetworkError("socket closed"))).toBe(true);
    expect(isMongoUnavailable(new MongoNetworkTimeoutError("timed out"))).toBe(true);
    const selection = new MongoServerSelectionError("no server", {
      type: "Unknown",
      servers: new Map(),
      stale: false,
      compatible: true,
      heartbeatFrequencyMS: 10_000,
      localThresholdMS: 15,
    } as never);
    expect(isMongoUnavailable(selection)).toBe(true);
  });

  it("recognises server errors labelled retryable, and nothing else", () => {
    const retryable = new MongoServerError({
      message: "primary stepped down",
      code: 189,
      errorLabels: ["RetryableWriteError"],
    });
    expect(isMongoUnavailable(retryable)).toBe(true);
    expect(isMongoUnavailable(new MongoServerError({ message: "duplicate key", code: 11000 }))).toBe(false);
    expect(isMongoUnavailable(new Error("MongoNetworkError"))).toBe(false);
    expect(isMongoUnavailable({ name: "MongoNetworkError" })).toBe(false);
    expect(isMongoUnavailable(undefined)).toBe(false);
  });
});
