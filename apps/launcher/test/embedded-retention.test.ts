import { createLogger, readConfig } from "@gateway/platform";
import { waitFor } from "@gateway/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { embeddedConfigSpec } from "../src/embedded-config.js";
import { type EmbeddedGateway, startEmbeddedGateway } from "../src/embedded-gateway.js";

const DEMO_KEY = "sk_test_RetentionDemo01AbcdefghijklmnopqrstuvwxyzABC";
// Sessions live 2 s, webhooks have no retries and 1 s POSTs: 3 s is the shortest valid window.
const SHORT_WINDOWS = {
  PORT: "0",
  // Any free port: the default (9460) would collide with another test file's gateway.
  MANAGEMENT_PORT: "0",
  // Checkout links are not followed here; with PORT 0 the public URL must be given.
  GATEWAY_PUBLIC_URL: "http://localhost:8080",
  GATEWAY_DEMO_TEST_KEY: DEMO_KEY,
  GATEWAY_RATE_LIMITS: "off",
  GATEWAY_SESSION_LIFETIME: "2s",
  GATEWAY_WEBHOOK_RETRY_SCHEDULE: "none",
  GATEWAY_WEBHOOK_TIMEOUT: "1s",
  GATEWAY_SWEEP_INTERVAL: "200ms",
};

let gateway: EmbeddedGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

async function createSession(url: string, reference: string): Promise<void> {
  const response = await fetch(`${url}/api/v1/gateway/sessions/`, {
    method: "POST",
    headers: { authorization: `Bearer ${DEMO_KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ merchant_reference: reference, amount: "1.000" }),
  });
  expect(response.status, await response.text()).toBe(201);
}

describe("embedded mode's bounded memory", () => {
  it("when sessions are created in a loop with a short retention, then the sessions in memory stay bounded and old ones leave", async () => {
    const config = readConfig(embeddedConfigSpec, { ...SHORT_WINDOWS, GATEWAY_MEMORY_RETENTION: "3s" });
    gateway = await startEmbeddedGateway(config, createLogger({ service: "gateway", level: "silent" }));
    const { url } = gateway;

    let created = 0;
    let mostKept = 0;
    const loopUntil = Date.now() + 12_000;
    while (Date.now() < loopUntil) {
      await createSession(url, `retention-${created++}`);
      mostKept = Math.max(mostKept, gateway.sessionsInMemory());
    }

    // Some sessions already left while the loop ran, so memory never held them all...
    expect(mostKept).toBeLessThan(created);
    // ...and once the window has passed for every one of them, none is kept.
    const kept = gateway;
    await waitFor(() => kept.sessionsInMemory() === 0, {
      timeoutMs: 30_000,
      message: "every session to leave memory",
    });
  }, 90_000);

  it("when the retention is shorter than the session lifetime plus the webhook retries, then the gateway refuses to start and says why", async () => {
    const config = readConfig(embeddedConfigSpec, { ...SHORT_WINDOWS, GATEWAY_MEMORY_RETENTION: "2s" });
    await expect(
      startEmbeddedGateway(config, createLogger({ service: "gateway", level: "silent" })),
    ).rejects.toThrow(
      /GATEWAY_MEMORY_RETENTION .* must be at least GATEWAY_SESSION_LIFETIME plus the whole GATEWAY_WEBHOOK_RETRY_SCHEDULE/,
    );
  });
});
