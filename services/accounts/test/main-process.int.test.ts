import { randomBytes } from "node:crypto";
import { connectMongo } from "@gateway/platform";
import { afterAll, describe, expect, it } from "vitest";
import { generateApiKey } from "../src/domain/api-key.js";
import { createGrpcJsClients } from "./support/grpc-js-clients.js";
import { startAccountsProcess, type ServiceProcess } from "./support/service-process.js";

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
    const service = start({ MONGODB_URL, GATEWAY_DEMO: "true", GATEWAY_DEMO_TEST_KEY: testKey });
    expect(await service.waitForLine(/^GATEWAY_DEMO_TEST_KEY=/)).toBe(`GATEWAY_DEMO_TEST_KEY=${testKey}`);
    const listening = JSON.parse(await service.waitForLine(/"msg":"accounts listening"/)) as { url: string };

    const clients = createGrpcJsClients(new URL(listening.url).host);
    try {
      expect((await clients.authenticate({ apiKey: testKey })).scope).toEqual({ merchantId: "mer_demo", livemode: false });
    } finally {
      clients.close();
    }
    expect((await fetch(`${listening.url}/readyz`)).status).toBe(200);

    const logLines = service.stdout().split("\n").filter((line) => line.startsWith("{"));
    expect(logLines.some((line) => line.includes("Demo merchant ready"))).toBe(true);
    expect(logLines.join("\n")).not.toContain(testKey.slice(20));

    service.child.kill("SIGTERM");
    expect(await service.exited).toBe(0);
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
