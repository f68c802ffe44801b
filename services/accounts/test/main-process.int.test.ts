import { randomBytes } from "node:crypto";
import {
  connectMongo,
  generateServiceAuthKeys,
  mintServiceToken,
  parseServiceAuthKeys,
} from "@gateway/platform";
import { afterAll, describe, expect, it } from "vitest";
import { generateApiKey } from "../src/domain/api-key.js";
import { createGrpcJsClients } from "./support/grpc-js-clients.js";
import { type ServiceProcess, startAccountsProcess } from "./support/service-process.js";

const MONGODB_URL = process.env.MONGODB_URL ?? "";
const database = `test_accounts_main_${randomBytes(6).toString("hex")}`;
const started: ServiceProcess[] = [];

function start(env: Record<string, string>): ServiceProcess {
  const service = startAccountsProcess({ PORT: "0", HOST: "127.0.0.1", MONGODB_DATABASE: database, ...env });
  started.push(service);
  return service;
}

afterAll(async () => {
  for (const service of started) if (service.child.exitCode === null) service.child.kill("SIGKILL");
  const client = await connectMongo(MONGODB_URL, "test-accounts-main");
  await client.db(database).dropDatabase();
  await client.close();
});

describe("the accounts process", () => {
  it("when started with the demo on, then it prints a working demo key on a plain line, never in a log line, and stops on SIGTERM", async () => {
    const testKey = generateApiKey(false).text;
    const keys = generateServiceAuthKeys();
    const service = start({
      MONGODB_URL,
      GATEWAY_DEMO: "true",
      GATEWAY_DEMO_TEST_KEY: testKey,
      GATEWAY_PUBLIC_URL: "https://pay.example.test",
      GATEWAY_SERVICE_AUTH_KEYS: keys.accounts,
    });
    expect(await service.waitForLine(/^GATEWAY_DEMO_TEST_KEY=/)).toBe(`GATEWAY_DEMO_TEST_KEY=${testKey}`);
    const listening = JSON.parse(await service.waitForLine(/"msg":"accounts listening"/)) as { url: string };

    // Called as the edge would, with a service token addressed to accounts.
    const edgeKey = parseServiceAuthKeys("edge")(keys.edge).outgoing.get("accounts")!;
    const token = () =>
      mintServiceToken({ caller: "edge", audience: "accounts", key: edgeKey, nowMs: Date.now() });
    const clients = createGrpcJsClients(new URL(listening.url).host, { token });
    try {
      expect((await clients.authenticate({ apiKey: testKey })).scope).toEqual({
        merchantId: "mer_demo",
        livemode: false,
      });
      // The demo's test terminal is the EPG simulator behind the public URL, with its default terminal.
      expect(
        await clients.resolveTerminalCredentials({ scope: { merchantId: "mer_demo", livemode: false } }),
      ).toEqual({
        baseUrl: "https://pay.example.test/epg/rest",
        username: "sim-merchant",
        password: "sim-password",
      });
    } finally {
      clients.close();
    }
    expect((await fetch(`${listening.url}/readyz`)).status).toBe(200);

    const logLines = service
      .stdout()
      .split("\n")
      .filter((line) => line.startsWith("{"));
    expect(logLines.some((line) => line.includes("Demo merchant ready"))).toBe(true);
    // No GATEWAY_SECRETS_KEY in demo mode: a random key, and a warning saying what that means.
    expect(
      logLines.some((line) => line.includes('"level":40') && line.includes("GATEWAY_SECRETS_KEY is not set")),
    ).toBe(true);
    expect(logLines.join("\n")).not.toContain(testKey.slice(20));
    expect(logLines.join("\n")).not.toContain("sim-password");

    service.child.kill("SIGTERM");
    expect(await service.exited).toBe(0);
  });

  it("when the demo is off and GATEWAY_SECRETS_KEY is missing, then it says how to make one on stderr and exits 1", async () => {
    const service = start({ MONGODB_URL, GATEWAY_DEMO: "false" });
    expect(await service.exited).toBe(1);
    expect(service.stderr()).toMatch(
      /GATEWAY_SECRETS_KEY is required when GATEWAY_DEMO is off.*openssl rand -base64 32/,
    );
  });

  it("when GATEWAY_SECRETS_KEY is malformed, then it explains the format without echoing it and exits 1", async () => {
    const service = start({
      MONGODB_URL,
      GATEWAY_DEMO: "false",
      GATEWAY_SECRETS_KEY: "correct-horse-battery-staple",
    });
    expect(await service.exited).toBe(1);
    expect(service.stderr()).toMatch(
      /GATEWAY_SECRETS_KEY must be the base64 encoding of exactly 32 random bytes/,
    );
    expect(service.stderr() + service.stdout()).not.toContain("correct-horse-battery-staple");
  });

  it("when MONGODB_URL is missing, then it names the variable on stderr and exits 1", async () => {
    const service = start({});
    expect(await service.exited).toBe(1);
    expect(service.stderr()).toContain("MONGODB_URL is required");
  });

  it("when the demo key is not a test key, then it explains the format on stderr, without the key, and exits 1", async () => {
    const liveKey = generateApiKey(true).text;
    const service = start({ MONGODB_URL, GATEWAY_DEMO_TEST_KEY: liveKey });
    expect(await service.exited).toBe(1);
    expect(service.stderr()).toMatch(/GATEWAY_DEMO_TEST_KEY.*sk_test_/);
    expect(service.stderr() + service.stdout()).not.toContain(liveKey.slice(20));
  });
});
