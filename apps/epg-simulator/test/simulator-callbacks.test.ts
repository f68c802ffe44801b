import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createEpgAcquirer, simulatorTerminalBaseUrl } from "@gateway/acquirer";
import { afterEach, describe, expect, it } from "vitest";
import { createEpgSimulator, type EpgSimulator } from "../src/index.js";
import { submitCard } from "./support/card-page-client.js";
import { type RunningSimulator, registerOrder, startSimulator } from "./support/simulator-fixture.js";

// BPC-style callbacks, and the simulator mounted inside another HTTP server.

const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function callbackReceiver(): Promise<{ url: string; received: URLSearchParams[] }> {
  const received: URLSearchParams[] = [];
  const url = await listen(
    createServer((req, res) => {
      received.push(new URL(req.url ?? "/", "http://x").searchParams);
      res.writeHead(200).end();
    }),
  );
  return { url: `${url}/epg-callback`, received };
}

async function until(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("when a callback URL is configured", () => {
  it("then payments, declines, refunds and timeouts are announced with mdOrder, operation and status", async () => {
    const receiver = await callbackReceiver();
    const sim: RunningSimulator = await startSimulator({
      callbackUrl: receiver.url,
      orderTimeoutMs: 500,
      callbackSweepMs: 20,
    });
    closers.push(async () => {
      sim.simulator.stop();
      await sim.server.close();
    });
    const acquirer = createEpgAcquirer({ timeoutMs: 5_000 });

    const paid = await registerOrder(acquirer, sim.terminal);
    await submitCard(paid.formUrl, { number: "4242424242424242" });
    await until(() => receiver.received.some((q) => q.get("mdOrder") === paid.acquirerOrderId));
    const deposited = receiver.received.find((q) => q.get("mdOrder") === paid.acquirerOrderId);
    expect(deposited?.get("operation")).toBe("deposited");
    expect(deposited?.get("status")).toBe("1");

    await acquirer.refund({
      terminal: sim.terminal,
      acquirerOrderId: paid.acquirerOrderId,
      amountMinor: 1_000n,
      externalRefundId: "re_cb",
    });
    await until(() => receiver.received.some((q) => q.get("operation") === "refunded"));

    const declined = await registerOrder(acquirer, sim.terminal);
    await submitCard(declined.formUrl, { number: "4000000000000002" });
    await until(() => receiver.received.some((q) => q.get("mdOrder") === declined.acquirerOrderId));
    expect(receiver.received.find((q) => q.get("mdOrder") === declined.acquirerOrderId)?.get("status")).toBe(
      "0",
    );

    // Nobody asks about this one: the sweeper notices the timeout on its own.
    const forgotten = await registerOrder(acquirer, sim.terminal);
    await until(() => receiver.received.some((q) => q.get("mdOrder") === forgotten.acquirerOrderId));
    const timeout = receiver.received.find((q) => q.get("mdOrder") === forgotten.acquirerOrderId);
    expect(timeout?.get("operation")).toBe("declinedByTimeout");
    expect(receiver.received.every((q) => !q.toString().includes("4242424242424242"))).toBe(true);
  });
});

describe("when the simulator is mounted in another server", () => {
  it("then it serves /epg/ paths there and its card links use the public URL", async () => {
    let simulator: EpgSimulator | undefined;
    const host = createServer((req, res) => {
      if ((req.url ?? "").startsWith("/epg/")) simulator?.handle(req, res);
      else res.writeHead(200).end("the gateway");
    });
    const url = await listen(host);
    simulator = createEpgSimulator({ publicUrl: url });
    const terminal = {
      baseUrl: simulatorTerminalBaseUrl(url),
      username: "sim-merchant",
      password: "sim-password",
    };
    const acquirer = createEpgAcquirer({ timeoutMs: 5_000 });

    const order = await registerOrder(acquirer, terminal);
    expect(order.formUrl).toBe(`${url}/epg/payment/${order.acquirerOrderId}`);
    expect((await submitCard(order.formUrl, { number: "5555555555554444" })).status).toBe(303);
    const status = await acquirer.getOrderStatus({ terminal, acquirerOrderId: order.acquirerOrderId });
    expect(status.card?.brand).toBe("mastercard");
    expect(await (await fetch(`${url}/`)).text()).toBe("the gateway");
  });
});
