import { Gateway } from "@gateway/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type GatewayTarget,
  startDistributedTarget,
  startEmbeddedTarget,
} from "./support/gateway-targets.js";
import { adminApi } from "./support/http.js";
import { createVerifiedMerchant, type TestMerchant } from "./support/merchants.js";
import { payWithCard } from "./support/pay-with-card.js";

// Issue 14 item 6: the edge's event stream for `gateway listen`
// (docs/api/webhooks.md#listening-on-a-laptop), in both modes: a paid test session's
// session.succeeded arrives on the stream with the webhook body; an unknown key is refused; the
// stream is bounded per account.
const KEY = "sk_test_StreamE2eDemoKey01abcdefghijklmnopqrstuvwxyz";
const STREAM_PATH = "/api/v1/gateway/events/stream/";
const VISA_OK = "4242424242424242";
const ADMIN_TOKEN = "adm_e2e_event_stream_token_9c4a17";

interface StreamMessage {
  id?: string;
  event?: string;
  data: string;
}

/** An open stream: its messages as they arrive (comments ignored), and a way to close it. */
async function openStream(baseUrl: string, key: string) {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}${STREAM_PATH}`, {
    headers: { authorization: `Bearer ${key}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const messages: StreamMessage[] = [];
  let connected = false;
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffered += value;
        let end = buffered.indexOf("\n\n");
        while (end >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          if (block === ": connected") connected = true;
          const message: StreamMessage = { data: "" };
          const data: string[] = [];
          for (const line of block.split("\n")) {
            if (line.startsWith("id: ")) message.id = line.slice(4);
            else if (line.startsWith("event: ")) message.event = line.slice(7);
            else if (line.startsWith("data: ")) data.push(line.slice(6));
          }
          if (data.length > 0) messages.push({ ...message, data: data.join("\n") });
          end = buffered.indexOf("\n\n");
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  await waitUntil(() => connected, "the stream's ': connected' comment");
  return {
    messages,
    async close() {
      controller.abort();
      await pump;
    },
  };
}

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each([
  ["embedded", () => startEmbeddedTarget(KEY, { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN })],
  ["distributed", () => startDistributedTarget("event_stream_e2e", { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN })],
])("the events stream in %s mode", (_mode, start) => {
  let target: GatewayTarget;
  let gateway: Gateway;
  let other: TestMerchant;

  beforeAll(async () => {
    target = await start();
    gateway = new Gateway({ apiKey: target.demoKey, baseUrl: target.url });
    other = await createVerifiedMerchant(adminApi(target.url, ADMIN_TOKEN), "Stream Neighbour");
  }, 180_000);

  afterAll(async () => {
    await target?.stop();
  });

  it("when a test session is paid, then its session.succeeded arrives with the webhook body, and never on another account's stream", async () => {
    const stream = await openStream(target.url, target.demoKey);
    const neighbour = await openStream(target.url, other.testKey);
    try {
      const session = await gateway.sessions.create({
        merchant_reference: `stream-${Date.now()}`,
        amount: "12.500",
        currency: "TND",
        items: [{ name: "Tea", quantity: 1, unit_price: "12.500" }],
        return_url: "https://shop.example/ok",
        cancel_url: "https://shop.example/cancel",
      });
      await payWithCard(session.checkout_url!, { number: VISA_OK });
      await waitUntil(
        () => stream.messages.some((m) => m.event === "session.succeeded" && m.data.includes(session.id)),
        "session.succeeded on the stream",
      );
      const message = stream.messages.find((m) => m.event === "session.succeeded")!;
      const body = JSON.parse(message.data);
      expect(message.id).toBe(body.id);
      expect(body).toMatchObject({
        event: "session.succeeded",
        data: { id: session.id, status: "SUCCEEDED" },
      });
      expect(body.id).toMatch(/^evt_/);
      // Both streams hear the same feed at the same moment; a leak would have arrived by now.
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(neighbour.messages).toEqual([]);
    } finally {
      await stream.close();
      await neighbour.close();
    }
  });

  it("when the key is a live key, then the stream is a 403 problem document", async () => {
    const response = await fetch(`${target.url}${STREAM_PATH}`, {
      headers: { authorization: `Bearer ${other.liveKey}` },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(((await response.json()) as { detail: string }).detail).toContain("test keys only");
  });

  it("when the key is unknown, then the stream is a 401 problem document", async () => {
    const response = await fetch(`${target.url}${STREAM_PATH}`, {
      headers: { authorization: `Bearer ${KEY.replace("Demo", "Nope")}` },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  });

  it("when an account opens more than five streams, then the sixth is a 409 until one closes", async () => {
    const streams = [];
    for (let i = 0; i < 5; i++) streams.push(await openStream(target.url, target.demoKey));
    try {
      const sixth = await fetch(`${target.url}${STREAM_PATH}`, {
        headers: { authorization: `Bearer ${target.demoKey}` },
      });
      expect(sixth.status).toBe(409);
      expect(((await sixth.json()) as { detail: string }).detail).toContain("open event streams");
      await streams.pop()!.close();
      // The edge frees the slot when it sees the connection close.
      let reopened: Awaited<ReturnType<typeof openStream>> | undefined;
      const deadline = Date.now() + 10_000;
      while (!reopened && Date.now() < deadline) {
        const probe = await fetch(`${target.url}${STREAM_PATH}`, {
          headers: { authorization: `Bearer ${target.demoKey}` },
        });
        if (probe.status === 200) {
          await probe.body?.cancel();
          reopened = { messages: [], close: async () => {} };
        } else {
          await probe.body?.cancel();
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      expect(reopened).toBeDefined();
    } finally {
      for (const stream of streams) await stream.close();
    }
  });
});
