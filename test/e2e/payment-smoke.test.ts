import { type DistributedGateway, startDistributedGateway } from "@gateway/launcher";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { merchantApi } from "./support/http.js";
import { payWithCard } from "./support/pay-with-card.js";

// The demo merchant's test terminal points at the EPG simulator process: a paid session in
// distributed mode, driven like a browser without JavaScript.
describe("a test-mode payment, distributed mode", () => {
  let gw: DistributedGateway;

  beforeAll(async () => {
    gw = await startDistributedGateway({
      mongodbUrl: process.env.MONGODB_URL,
      natsUrl: process.env.NATS_URL,
      databasePrefix: `e2e_pay_${Date.now().toString(36)}`,
    });
  });

  afterAll(async () => {
    await gw?.stop();
  });

  it("pays with the approved Visa test card and shows the attempt to the merchant", async () => {
    const api = merchantApi(gw.edgeUrl, gw.demoTestKey!);
    const created = await api.createSession({
      merchant_reference: "smoke-1",
      amount: "42.000",
      return_url: "https://shop.example/ok",
    });
    expect(created.status, created.text).toBe(201);
    const run = await payWithCard(created.body.checkout_url, { number: "4242424242424242" });
    expect(run.orderId).not.toBe("");
    const session = (await api.getSession(created.body.id)).body;
    expect(session.status).toBe("SUCCEEDED");
    expect(session.attempts).toHaveLength(1);
    expect(session.attempts[0]).toMatchObject({
      attempt_number: 1,
      status: "SUCCEEDED",
      card_brand: "visa",
      card_last_four: "4242",
    });
  });
});
