import { freePort } from "@gateway/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningShop, startShop } from "../../examples/shop/shop.js";
import { type GatewayTarget, startEmbeddedTarget } from "./support/gateway-targets.js";
import { payWithCard } from "./support/pay-with-card.js";

// Issue 14 item 7: the example shop (examples/shop) end to end against the gateway: checkout
// creates a session, the buyer pays on the hosted page with a test card, and the shop's order
// turns paid only through a real, verified webhook delivery.
const KEY = "sk_test_ExampleShop01abcdefghijklmnopqrstuvwxyzABCDE";
const ADMIN_TOKEN = "adm_example_shop_e2e_token_01";

let target: GatewayTarget;
let shop: RunningShop;

beforeAll(async () => {
  target = await startEmbeddedTarget(KEY, { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN });
  const port = await freePort();
  const endpoint = await fetch(`${target.url}/admin/v1/merchants/mer_demo/webhook-endpoints/test`, {
    method: "PUT",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ url: `http://127.0.0.1:${port}/hooks` }),
  });
  expect(endpoint.status).toBe(200);
  const { secret } = (await endpoint.json()) as { secret: string };
  expect(secret).toMatch(/^whsec_/);
  shop = await startShop({ gatewayUrl: target.url, apiKey: KEY, webhookSecret: secret, port });
}, 120_000);

afterAll(async () => {
  await shop?.close();
  await target?.stop();
});

async function checkout(amount: string) {
  const res = await fetch(`${shop.url}/checkout`, { method: "POST", body: JSON.stringify({ amount }) });
  return { status: res.status, body: (await res.json()) as { order_id: string; checkout_url: string } };
}

async function orderStatus(id: string): Promise<string> {
  return ((await (await fetch(`${shop.url}/orders/${id}`)).json()) as { status: string }).status;
}

async function eventually(read: () => Promise<string>, expected: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  let last = await read();
  while (last !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await read();
  }
  expect(last).toBe(expected);
}

describe("the example shop", () => {
  it("when the buyer pays with an approved card, then the verified webhook marks the order paid", async () => {
    const { status, body } = await checkout("12.500");
    expect(status).toBe(201);
    expect(await orderStatus(body.order_id)).toBe("awaiting_payment");
    await payWithCard(body.checkout_url, { number: "4242424242424242" });
    await eventually(() => orderStatus(body.order_id), "paid");
  });

  it("when a webhook is forged, then it is refused and no order changes", async () => {
    const { body } = await checkout("3.000");
    const forged = await fetch(`${shop.url}/hooks`, {
      method: "POST",
      headers: {
        "webhook-id": "evt_forged",
        "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
        "webhook-signature": "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
      },
      body: JSON.stringify({
        id: "evt_forged",
        event: "session.succeeded",
        data: { merchant_reference: body.order_id },
      }),
    });
    expect(forged.status).toBe(400);
    expect(await orderStatus(body.order_id)).toBe("awaiting_payment");
  });

  it("when the amount is not a decimal string, then checkout answers 422 and creates nothing", async () => {
    const before = shop.orders.size;
    expect((await checkout("12.5.0")).status).toBe(422);
    expect(shop.orders.size).toBe(before);
  });
});
