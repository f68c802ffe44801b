import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Gateway } from "@gateway/sdk";
import { Webhook, WebhookVerificationError } from "@gateway/webhook-signature";

/**
 * A tiny merchant shop, the smallest honest integration of the gateway: an order is created
 * with its price, checkout creates a payment session for it and sends the buyer to the hosted
 * page, and only a verified `session.succeeded` webhook marks the order paid (the buyer's return
 * to the shop proves nothing). Orders live in memory; a real shop keeps them in its database.
 */
export interface ShopOptions {
  /** The gateway's base URL, e.g. http://127.0.0.1:8080. */
  gatewayUrl: string;
  /** The merchant's secret API key (sk_test_… while developing). */
  apiKey: string;
  /** The endpoint's signing secret (whsec_…), or the one `gateway listen` printed. */
  webhookSecret: string;
  port?: number;
  host?: string;
}

export interface Order {
  id: string;
  /** Decimal string in TND, as the gateway takes it. */
  amount: string;
  status: "awaiting_payment" | "paid" | "failed" | "expired";
  sessionId?: string;
}

export interface RunningShop {
  url: string;
  orders: ReadonlyMap<string, Order>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;

export async function startShop(options: ShopOptions): Promise<RunningShop> {
  const gateway = new Gateway({ apiKey: options.apiKey, baseUrl: options.gatewayUrl });
  const webhook = new Webhook(options.webhookSecret);
  const orders = new Map<string, Order>();
  let shopUrl = "";

  async function checkout(res: ServerResponse, body: Buffer): Promise<void> {
    const { amount } = JSON.parse(body.toString("utf8") || "{}") as { amount?: unknown };
    if (typeof amount !== "string" || !/^\d{1,9}(\.\d{1,3})?$/.test(amount))
      return send(res, 422, { error: "amount must be a decimal string such as 12.500" });
    const order: Order = { id: `ord_${randomUUID()}`, amount, status: "awaiting_payment" };
    orders.set(order.id, order);
    // merchant_reference is the order id: a retried create returns the same session, never a second one.
    const session = await gateway.sessions.create({
      merchant_reference: order.id,
      amount,
      currency: "TND",
      return_url: `${shopUrl}/orders/${order.id}`,
      cancel_url: `${shopUrl}/orders/${order.id}`,
    });
    order.sessionId = session.id;
    send(res, 201, { order_id: order.id, checkout_url: session.checkout_url });
  }

  function hook(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    let event: { event: string; data: { merchant_reference?: string } };
    try {
      event = webhook.verify(body, req.headers as Record<string, string>);
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      send(res, 400, { error: "bad signature" });
      return;
    }
    const order = orders.get(event.data.merchant_reference ?? "");
    // A 2xx for events the shop does not care about, or the gateway would retry them.
    if (order && order.status === "awaiting_payment") {
      if (event.event === "session.succeeded") order.status = "paid";
      else if (event.event === "session.failed") order.status = "failed";
      else if (event.event === "session.expired") order.status = "expired";
    }
    res.writeHead(204).end();
  }

  const server: Server = createServer((req, res) => {
    readBody(req)
      .then(async (body) => {
        if (req.method === "POST" && req.url === "/checkout") return await checkout(res, body);
        if (req.method === "POST" && req.url === "/hooks") return hook(req, res, body);
        const match = /^\/orders\/(ord_[0-9a-f-]{36})$/.exec(req.url ?? "");
        const order = match ? orders.get(match[1]!) : undefined;
        if (req.method === "GET" && order) return send(res, 200, order);
        send(res, 404, { error: "not found" });
      })
      .catch((err: unknown) => {
        if (!res.headersSent) send(res, err instanceof SyntaxError ? 400 : 502, { error: String(err) });
      });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve),
  );
  shopUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: shopUrl,
    orders,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/** The raw bytes: the signature covers them exactly, so the body is verified before it is parsed. */
async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new SyntaxError("body too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
