import { createLogger, type Logger } from "@gateway/platform";
import { parseRateLimitConfig, type RateLimitCheck } from "@gateway/rate-limiter";
import { freePort, type LocalServer, startNatsServer, waitFor } from "@gateway/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  createEdgeRateLimiting,
  type EdgeRateLimiting,
} from "../../src/rate-limit/create-edge-rate-limiting.js";

// A burst of 10 that refills slowly (1/s), so a few ms of real time between checks do not matter.
const POLICY = parseRateLimitConfig("test.account=1/10");

function capturingLogger(lines: string[]): Logger {
  return createLogger({
    service: "edge",
    level: "info",
    destination: { write: (line: string) => void lines.push(line) },
  });
}

describe("edge rate limiting over NATS JetStream KV", () => {
  const owned: Array<EdgeRateLimiting | LocalServer> = [];
  afterEach(async () => {
    for (const item of owned.reverse()) await ("close" in item ? item.close() : item.stop());
    owned.length = 0;
  });

  async function edgeLimiting(natsUrl: string, lines: string[] = []): Promise<EdgeRateLimiting> {
    const limiting = await createEdgeRateLimiting({
      policy: POLICY,
      natsUrl,
      distributed: true,
      logger: capturingLogger(lines),
    });
    owned.push(limiting);
    return limiting;
  }

  it("when two replicas share one NATS, then a merchant's budget is shared between them", async () => {
    const nats = await startNatsServer();
    owned.push(nats);
    const a = await edgeLimiting(nats.url);
    const b = await edgeLimiting(nats.url);
    expect(a.store).toBe("nats-kv");
    const request: RateLimitCheck = {
      merchantId: `mer_shared${Date.now()}`,
      livemode: false,
      budgets: ["account"],
    };
    const decisions = [];
    for (let i = 0; i < 14; i++) decisions.push(await (i % 2 === 0 ? a : b).limiter!.check(request));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    expect(decisions.some((d) => d.degraded)).toBe(false);
  });

  it("when NATS is down at start, then the edge starts, limits per replica, and shares limits once NATS answers", async () => {
    const port = await freePort();
    const lines: string[] = [];
    const limiting = await edgeLimiting(`nats://127.0.0.1:${port}`, lines);
    expect(lines.some((line) => line.includes("rate limit store (NATS KV) unavailable"))).toBe(true);
    const merchant = (n: number): RateLimitCheck => ({
      merchantId: `mer_late${n}`,
      livemode: false,
      budgets: ["account"],
    });

    const early = await limiting.limiter!.check(merchant(0));
    expect(early).toMatchObject({ allowed: true, degraded: true });

    const nats = await startNatsServer({ port });
    owned.push(nats);
    // The limiter probes the store about once a second; the probe that finds it open ends the degradation.
    let n = 1;
    await waitFor(async () => (await limiting.limiter!.check(merchant(n++))).degraded === false, {
      timeoutMs: 15_000,
      message: "the limiter never used NATS after it came up",
    });

    const other = await edgeLimiting(nats.url);
    const request = merchant(1_000);
    const decisions = [];
    for (let i = 0; i < 12; i++)
      decisions.push(await (i % 2 === 0 ? limiting : other).limiter!.check(request));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
  });

  it("when GATEWAY_RATE_LIMITS is off, then no limiter and no NATS connection are made", async () => {
    const limiting = await createEdgeRateLimiting({
      policy: "off",
      natsUrl: "nats://127.0.0.1:1",
      distributed: true,
      logger: capturingLogger([]),
    });
    expect(limiting).toMatchObject({ limiter: undefined, store: "off" });
    await limiting.close();
  });

  it("when NATS_URL is unset in distributed mode, then limits are kept in memory and a warning says they are per replica", async () => {
    const lines: string[] = [];
    const limiting = await createEdgeRateLimiting({
      policy: undefined,
      distributed: true,
      logger: capturingLogger(lines),
    });
    owned.push(limiting);
    expect(limiting.store).toBe("memory");
    expect(
      lines.some(
        (line) => line.includes('"level":40') && line.includes("rate limits are kept per edge replica"),
      ),
    ).toBe(true);
    const decision = await limiting.limiter!.check({
      merchantId: "mer_mem",
      livemode: true,
      budgets: ["account", "create"],
    });
    expect(decision).toMatchObject({ allowed: true, limit: 10, remaining: 9 });
  });
});
