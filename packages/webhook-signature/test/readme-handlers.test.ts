import type { Buffer } from "node:buffer";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildSignatureHeader,
  type GatewayWebhookEvent,
  generateWebhookSecret,
  standardWebhookSignature,
  Webhook,
  WebhookVerificationError,
} from "../src/index.js";

// The README's fastify and Web-standard handlers, run for real against deliveries signed the way
// the gateway signs them (both schemes, from one secret, over the exact bytes).

const secret = generateWebhookSecret();
const BODY =
  '{"id":"evt_7","event":"session.succeeded","created_at":"2026-11-23T21:00:00.000Z","sequence":2,"data":{"amount":"12.500","metadata":{"n":1.50}}}';

function deliveryHeaders(body: string, secrets = [secret]): Record<string, string> {
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    "Content-Type": "application/json",
    "X-Service-Signature": buildSignatureHeader({ timestamp, body, secrets }),
    "X-Service-Webhook-Id": "evt_7",
    "X-Service-Event": "session.succeeded",
    "webhook-id": "evt_7",
    "webhook-timestamp": String(timestamp),
    "webhook-signature": standardWebhookSignature({ id: "evt_7", timestamp, body, secrets }),
  };
}

describe("the README's fastify handler", () => {
  const wh = new Webhook(secret);
  const received: GatewayWebhookEvent[] = [];
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    app = Fastify();
    app.register(async (hooks) => {
      hooks.removeContentTypeParser("application/json");
      hooks.addContentTypeParser("application/json", { parseAs: "buffer" }, (_req, body, done) =>
        done(null, body),
      );
      hooks.post("/webhooks/gateway", async (req, reply) => {
        try {
          received.push(wh.verify<GatewayWebhookEvent>(req.body as Buffer, req.headers));
          return reply.code(204).send();
        } catch (err) {
          if (err instanceof WebhookVerificationError) return reply.code(400).send(err.reason);
          throw err;
        }
      });
    });
    // Outside the plugin, JSON is still parsed as usual.
    app.post("/orders", async (req) => ({ parsed: req.body }));
    base = await app.listen({ host: "127.0.0.1", port: 0 });
  });

  afterAll(async () => {
    await app?.close();
  });

  it("when a gateway delivery arrives, then it verifies over the raw bytes and the handler gets the event", async () => {
    const res = await fetch(`${base}/webhooks/gateway`, {
      method: "POST",
      headers: deliveryHeaders(BODY),
      body: BODY,
    });
    expect(res.status).toBe(204);
    expect(received.at(-1)).toEqual(JSON.parse(BODY));
  });

  it("when the body was changed on the way, then the handler answers 400 with the reason", async () => {
    const res = await fetch(`${base}/webhooks/gateway`, {
      method: "POST",
      headers: deliveryHeaders(BODY),
      body: BODY.replace("12.500", "1.500"),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe("no_matching_signature");
  });

  it("when another route of the same app gets JSON, then it is still parsed there", async () => {
    const res = await fetch(`${base}/orders`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(await res.json()).toEqual({ parsed: { a: 1 } });
  });
});

describe("the README's Web-standard Request handler", () => {
  const wh = new Webhook(secret);

  async function POST(request: Request): Promise<Response> {
    const raw = new Uint8Array(await request.arrayBuffer());
    try {
      const event = wh.verify<GatewayWebhookEvent>(raw, request.headers);
      return new Response(event.event, { status: 200 });
    } catch (err) {
      if (err instanceof WebhookVerificationError) return new Response(err.reason, { status: 400 });
      throw err;
    }
  }

  it("when a gateway delivery arrives, then it verifies and the event is read", async () => {
    const res = await POST(
      new Request("http://shop.test/hooks", { method: "POST", headers: deliveryHeaders(BODY), body: BODY }),
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("session.succeeded");
  });

  it("when the gateway is rotating its secret, then a receiver with either secret accepts, a stale one does not", async () => {
    const next = generateWebhookSecret();
    const headers = deliveryHeaders(BODY, [next, secret]);
    const request = () => new Request("http://shop.test/hooks", { method: "POST", headers, body: BODY });
    expect((await POST(request())).status).toBe(200);
    expect(new Webhook(next).verify(BODY, request().headers)).toEqual(JSON.parse(BODY));
    expect(() => new Webhook(generateWebhookSecret()).verify(BODY, request().headers)).toThrow(
      WebhookVerificationError,
    );
  });

  it("when the signature headers are missing, then the answer is 400 missing_header", async () => {
    const res = await POST(new Request("http://shop.test/hooks", { method: "POST", body: BODY }));
    expect(res.status).toBe(400);
    expect(await res.text()).toBe("missing_header");
  });
});
