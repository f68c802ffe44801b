import { generateWebhookSecret, Webhook } from "@gateway/webhook-signature";
import { describe, expect, it } from "vitest";
import { readEventStream } from "../src/cli/event-stream.js";
import { eachItem, WebhookVerificationError, webhooks } from "../src/index.js";

describe("eachItem", () => {
  it("follows next_cursor until has_more is false, keeping the other query members", async () => {
    const asked: unknown[] = [];
    const pages = [
      { data: [1, 2], has_more: true, next_cursor: "c2" },
      { data: [3], has_more: true, next_cursor: "c3" },
      { data: [], has_more: false, next_cursor: null },
    ];
    const seen: number[] = [];
    for await (const n of eachItem(
      { status: "SUCCEEDED" } as { status: string; starting_after?: string },
      async (q) => {
        asked.push(q);
        return pages[asked.length - 1]!;
      },
    ))
      seen.push(n);
    expect(seen).toEqual([1, 2, 3]);
    expect(asked).toEqual([
      { status: "SUCCEEDED" },
      { status: "SUCCEEDED", starting_after: "c2" },
      { status: "SUCCEEDED", starting_after: "c3" },
    ]);
  });
});

describe("webhooks.constructEvent", () => {
  const secret = generateWebhookSecret();
  const body = JSON.stringify({
    id: "evt_1",
    event: "session.succeeded",
    created_at: "2026-01-01T00:00:00Z",
    data: { id: "ps_1" },
  });
  const headers = (s: string, b = body) => {
    const t = Math.floor(Date.now() / 1000);
    return {
      "webhook-id": "evt_1",
      "webhook-timestamp": String(t),
      "webhook-signature": new Webhook(s).sign("evt_1", t, b),
    };
  };

  it("returns the parsed event when the signature matches, also during a rotation", () => {
    expect(webhooks.constructEvent(body, headers(secret), secret)).toMatchObject({
      id: "evt_1",
      data: { id: "ps_1" },
    });
    expect(
      webhooks.constructEvent(Buffer.from(body), headers(secret), [generateWebhookSecret(), secret]).event,
    ).toBe("session.succeeded");
  });

  it("throws WebhookVerificationError for another secret or a changed body", () => {
    expect(() => webhooks.constructEvent(body, headers(generateWebhookSecret()), secret)).toThrow(
      WebhookVerificationError,
    );
    expect(() => webhooks.constructEvent(`${body} `, headers(secret), secret)).toThrow(
      /No matching signature/,
    );
  });
});

describe("readEventStream", () => {
  it("splits messages at blank lines across chunk boundaries, joins data lines and skips comments", async () => {
    const text =
      ': connected\n\nid: evt_1\nevent: session.succeeded\ndata: {"a":\ndata: 1}\n\n: ping\r\n\r\ndata: x\n\n';
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 7) c.enqueue(bytes.slice(i, i + 7));
        c.close();
      },
    });
    const comments: string[] = [];
    const events = [];
    for await (const e of readEventStream(body, (c) => comments.push(c))) events.push(e);
    expect(events).toEqual([
      { id: "evt_1", event: "session.succeeded", data: '{"a":\n1}' },
      { id: undefined, event: "message", data: "x" },
    ]);
    expect(comments).toEqual(["connected", "ping"]);
  });
});
