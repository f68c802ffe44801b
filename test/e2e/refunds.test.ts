import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEpgAcquirer, type Terminal } from "@gateway/acquirer";
import { startDistributedGateway, type DistributedGateway } from "@gateway/launcher";
import { adminApi, merchantApi, request, type AdminApi } from "./support/http.js";
import { createVerifiedMerchant, type TestMerchant } from "./support/merchants.js";
import { payWithCard } from "./support/pay-with-card.js";
import { expectProblem, violationCodes } from "./support/problem.js";

// Refunds end to end: the refunds service as its own process behind the edge, the EPG
// simulator process as the acquirer, and its ledger as the independent witness.
const ADMIN_TOKEN = "adm_e2e_refunds_token_5c1e";

describe("refunds, distributed mode", () => {
  let gw: DistributedGateway;
  let admin: AdminApi;
  let shop: TestMerchant;
  let terminal: Terminal;
  const errorsUrl = () => `${gw.edgeUrl}/errors`;
  const refund = (key: string, sessionId: string, body: unknown) =>
    request(`${gw.edgeUrl}/api/v1/gateway/sessions/${sessionId}/refund/`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body });

  /** A session of `shop` paid with the approved Visa card; returns its id and acquirer order. */
  async function paidSession(reference: string, amount: string, currency = "TND"): Promise<{ id: string; orderId: string }> {
    const created = await merchantApi(gw.edgeUrl, shop.testKey).createSession({ merchant_reference: reference, amount, currency });
    expect(created.status, created.text).toBe(201);
    const run = await payWithCard(created.body.checkout_url, { number: "4242424242424242" });
    const session = await merchantApi(gw.edgeUrl, shop.testKey).getSession(created.body.id);
    expect(session.body.status).toBe("SUCCEEDED");
    return { id: created.body.id, orderId: run.orderId };
  }

  /** What the acquirer itself says was refunded on an order, in minor units. */
  async function acquirerRefundedMinor(orderId: string): Promise<bigint> {
    const status = await createEpgAcquirer({ timeoutMs: 5_000 }).getOrderStatus({ terminal, acquirerOrderId: orderId });
    return status.refundedMinor + (status.state === "REVERSED" ? status.amountMinor : 0n);
  }

  beforeAll(async () => {
    gw = await startDistributedGateway({
      mongodbUrl: process.env.MONGODB_URL,
      natsUrl: process.env.NATS_URL,
      databasePrefix: `e2e_ref_${Date.now().toString(36)}`,
      env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, GATEWAY_DEMO: "0" },
    });
    admin = adminApi(gw.edgeUrl, ADMIN_TOKEN);
    shop = await createVerifiedMerchant(admin, "Refund Shop");
    terminal = { baseUrl: `${gw.simulatorUrl}/epg/rest`, username: "sim-merchant", password: "sim-password" };
    const set = await request(`${gw.edgeUrl}/admin/v1/merchants/${shop.id}/terminals/test`, {
      method: "PUT",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: { base_url: terminal.baseUrl, username: terminal.username, password: terminal.password, active: true },
    });
    expect(set.status, set.text).toBe(200);
    expect((await admin.setRate(shop.id, "EUR", "3.4")).status).toBe(200);
  });

  afterAll(async () => {
    await gw?.stop();
  });

  it("refunds partially, twice, then fully, and the balance reaches zero exactly", async () => {
    const paid = await paidSession("ref-1", "100.000");
    const first = await refund(shop.testKey, paid.id, { refund_type: "PARTIAL", amount: "30.250", reason: "damaged item" });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toEqual({ refund_id: expect.stringMatching(/^re_/), refunded_amount: "30.250", automated_refund: true });
    const second = await refund(shop.testKey, paid.id, { refund_type: "PARTIAL", amount: "0.001" });
    expect(second.body.refunded_amount).toBe("0.001");
    const rest = await refund(shop.testKey, paid.id, { refund_type: "FULL" });
    expect(rest.status, rest.text).toBe(201);
    expect(rest.body.refunded_amount).toBe("69.749");
    expectProblem(await refund(shop.testKey, paid.id, { refund_type: "PARTIAL", amount: "0.001" }), 422, "refund-failed", errorsUrl());
    expect(await acquirerRefundedMinor(paid.orderId)).toBe(100_000n);
  });

  it("refunds in TND what a EUR session was charged after conversion", async () => {
    const paid = await paidSession("ref-eur", "10.00", "EUR");
    const full = await refund(shop.testKey, paid.id, { refund_type: "FULL", metadata: { ticket: "T-1" } });
    expect(full.status, full.text).toBe(201);
    expect(full.body.refunded_amount).toBe("34.000");
    expect(await acquirerRefundedMinor(paid.orderId)).toBe(34_000n);
  });

  it("never lets 20 concurrent partial refunds sum past the payment, and the acquirer agrees", async () => {
    const paid = await paidSession("ref-race", "10.000");
    const results = await Promise.all(
      Array.from({ length: 20 }, () => refund(shop.testKey, paid.id, { refund_type: "PARTIAL", amount: "0.700" })),
    );
    const accepted = results.filter((r) => r.status === 201);
    for (const r of results.filter((x) => x.status !== 201)) expectProblem(r, 422, "refund-failed", errorsUrl());
    expect(accepted).toHaveLength(14); // 14 × 0.700 = 9.800 ≤ 10.000 < 15 × 0.700
    expect(await acquirerRefundedMinor(paid.orderId)).toBe(9_800n);
  });

  it("when the acquirer cannot be reached, the refund still succeeds for manual processing", async () => {
    const paid = await paidSession("ref-manual", "5.000");
    const unreachable = await request(`${gw.edgeUrl}/admin/v1/merchants/${shop.id}/terminals/test`, {
      method: "PUT",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: { base_url: "http://127.0.0.1:9/epg/rest", username: terminal.username, password: terminal.password, active: true },
    });
    expect(unreachable.status).toBe(200);
    try {
      const res = await refund(shop.testKey, paid.id, { refund_type: "FULL" });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ refunded_amount: "5.000", automated_refund: false, epg_error_message: expect.any(String) });
      expect(res.body.epg_error_message.length).toBeGreaterThan(0);
      // The money is spoken for: nothing more can be refunded while operations handle it.
      expectProblem(await refund(shop.testKey, paid.id, { refund_type: "PARTIAL", amount: "0.001" }), 422, "refund-failed", errorsUrl());
    } finally {
      await request(`${gw.edgeUrl}/admin/v1/merchants/${shop.id}/terminals/test`, {
        method: "PUT",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        body: { base_url: terminal.baseUrl, username: terminal.username, password: terminal.password, active: true },
      });
    }
  });

  it("refuses sessions that were not paid, bad amounts, and other merchants' sessions", async () => {
    const api = merchantApi(gw.edgeUrl, shop.testKey);
    const open = await api.createSession({ merchant_reference: "ref-open", amount: "1.000" });
    expectProblem(await refund(shop.testKey, open.body.id, { refund_type: "FULL" }), 422, "invalid-state", errorsUrl());
    await api.cancelSession(open.body.id);
    expectProblem(await refund(shop.testKey, open.body.id, { refund_type: "FULL" }), 422, "invalid-state", errorsUrl());

    const paid = await paidSession("ref-validate", "2.000");
    const numeric = await refund(shop.testKey, paid.id, { refund_type: "PARTIAL", amount: 1 });
    expectProblem(numeric, 422, "validation-error", errorsUrl());
    expect(violationCodes(numeric)).toContain("amount:invalid_type");
    const precision = await refund(shop.testKey, paid.id, { refund_type: "PARTIAL", amount: "1.00" });
    expect(violationCodes(precision)).toContain("amount:invalid_precision");
    const missing = await refund(shop.testKey, paid.id, { refund_type: "PARTIAL" });
    expect(violationCodes(missing)).toContain("amount:required");

    const other = await createVerifiedMerchant(admin, "Someone Else");
    expectProblem(await refund(other.testKey, paid.id, { refund_type: "FULL" }), 404, "not-found", errorsUrl());
    expectProblem(await refund(shop.liveKey, paid.id, { refund_type: "FULL" }), 404, "not-found", errorsUrl());
  });
});
