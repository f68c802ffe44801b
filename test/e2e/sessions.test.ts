import { type DistributedGateway, startDistributedGateway } from "@gateway/launcher";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdminApi, adminApi, type MerchantApi, merchantApi } from "./support/http.js";
import { createVerifiedMerchant, type TestMerchant } from "./support/merchants.js";
import { expectProblem, violationCodes } from "./support/problem.js";

// Issue 3 end to end: the sessions API over real HTTP, distributed mode (edge, accounts and
// sessions as separate processes, MongoDB wire server, NATS).
const ADMIN_TOKEN = "adm_e2e_sessions_token_77ab01";
const prefix = `e2e_sess_${Date.now().toString(36)}`;

describe("payment sessions API, distributed mode", () => {
  let gw: DistributedGateway;
  let admin: AdminApi;
  let shop: TestMerchant;
  let other: TestMerchant;
  const errorsUrl = () => `${gw.edgeUrl}/errors`;
  const modes = () =>
    [
      ["test", merchantApi(gw.edgeUrl, shop.testKey)],
      ["live", merchantApi(gw.edgeUrl, shop.liveKey)],
    ] as Array<[string, MerchantApi]>;

  beforeAll(async () => {
    gw = await startDistributedGateway({
      mongodbUrl: process.env.MONGODB_URL,
      natsUrl: process.env.NATS_URL,
      databasePrefix: prefix,
      env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, GATEWAY_DEMO: "0" },
    });
    admin = adminApi(gw.edgeUrl, ADMIN_TOKEN);
    shop = await createVerifiedMerchant(admin, "Sessions Shop");
    other = await createVerifiedMerchant(admin, "Other Shop");
    expect((await admin.setRate(shop.id, "EUR", "3.4")).body).toEqual({ currency: "EUR", rate: "3.400000" });
    expect((await admin.setRate(shop.id, "JPY", "0.0001")).status).toBe(200);
  });

  afterAll(async () => {
    await gw?.stop();
  });

  it("creates a session with the spec's fields, then returns the same one for the same reference", async () => {
    const api = merchantApi(gw.edgeUrl, shop.testKey);
    const body = {
      merchant_reference: "order-1",
      amount: "125.500",
      currency: "TND",
      order_id: "A-1",
      description: "Two books",
      items: [{ name: "Book", quantity: 2, unit_price: "62.750", description: "Paperback" }],
      buyer_email: "buyer@example.com",
      return_url: "https://shop.example/ok",
      cancel_url: "https://shop.example/cancel",
    };
    // Sent as raw text: a JS object literal would already reorder "1" and respell 1.50.
    const metadata = '{"a.b":1.50,"$k":[[1,2]],"z":"last","1":true,"e":1e2}';
    const raw = JSON.stringify(body).replace(/}$/, `,"metadata":${metadata}}`);
    const created = await api.createSessionRaw(raw);
    expect(created.status, created.text).toBe(201);
    const s = created.body;
    expect(s.id).toMatch(/^ps_/);
    expect(s.order_number).toMatch(/^[A-Z]+-[A-Z0-9]{6}$/);
    expect(s.order_number.length).toBeLessThanOrEqual(10);
    expect(s).toMatchObject({
      merchant_reference: "order-1",
      amount: "125.500",
      currency: "TND",
      original: { amount: "125.500", currency: "TND", rate: "1.000000" },
      status: "CREATED",
      livemode: false,
      max_attempts: 3,
      attempts: [],
      items: [{ name: "Book", quantity: 2, unit_price: "62.750", description: "Paperback" }],
    });
    expect(s.checkout_url).toMatch(/^https?:\/\/.+\/checkout\/[A-Za-z0-9]{20,}$/);
    expect(Date.parse(s.expires_at) - Date.parse(s.created_at)).toBe(24 * 3600 * 1000);
    // Metadata comes back byte for byte as sent (key order, "1.50" and "1e2" spellings, "$" and "." keys).
    expect(created.text).toContain(`"metadata":${metadata}`);

    const repeat = await api.createSessionRaw(raw);
    expect(repeat.status).toBe(200);
    expect(repeat.body.id).toBe(s.id);

    const changed = await api.createSessionRaw(raw.replace('"125.500"', '"125.600"'));
    expectProblem(changed, 409, "conflict", errorsUrl());
    expect(changed.body.existing_session_id).toBe(s.id);

    const fetched = await api.getSession(s.id);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(s);
    expect(fetched.text).toContain(`"metadata":${metadata}`);
  });

  it("converts a foreign amount to TND with a six-decimal rate", async () => {
    const res = await merchantApi(gw.edgeUrl, shop.testKey).createSession({
      merchant_reference: "eur-1",
      amount: "10.00",
      currency: "EUR",
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.amount).toBe("34.000");
    expect(res.body.currency).toBe("TND");
    expect(res.body.original).toEqual({ amount: "10.00", currency: "EUR", rate: "3.400000" });
  });

  describe.each(["test", "live"])("validation codes in %s mode", (mode) => {
    const api = () => modes().find(([m]) => m === mode)![1];
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ["a missing reference", { amount: "1.000" }, "merchant_reference:required"],
      ["a missing amount", { merchant_reference: "v" }, "amount:required"],
      ["a numeric amount", { merchant_reference: "v", amount: 10.5 }, "amount:invalid_type"],
      ["thousands separators", { merchant_reference: "v", amount: "1,000.000" }, "amount:invalid_format"],
      ["leading zeros", { merchant_reference: "v", amount: "01.000" }, "amount:invalid_format"],
      ["an exponent", { merchant_reference: "v", amount: "1e3" }, "amount:invalid_format"],
      ["two decimals in TND", { merchant_reference: "v", amount: "10.00" }, "amount:invalid_precision"],
      [
        "three decimals in EUR",
        { merchant_reference: "v", amount: "10.000", currency: "EUR" },
        "amount:invalid_precision",
      ],
      ["zero", { merchant_reference: "v", amount: "0.000" }, "amount:invalid_value"],
      ["a negative amount", { merchant_reference: "v", amount: "-5.000" }, "amount:invalid_value"],
      [
        "a foreign amount that rounds to nothing",
        { merchant_reference: "v", amount: "1", currency: "JPY" },
        "amount:invalid_value",
      ],
      ["too large in TND", { merchant_reference: "v", amount: "1000000.000" }, "amount:amount_too_large"],
      [
        "too large after conversion",
        { merchant_reference: "v", amount: "300000.00", currency: "EUR" },
        "amount:amount_too_large",
      ],
      [
        "a currency with no rate",
        { merchant_reference: "v", amount: "10.00", currency: "USD" },
        "currency:currency_unsupported",
      ],
      [
        "an unknown currency",
        { merchant_reference: "v", amount: "10.00", currency: "ZZZ" },
        "currency:invalid",
      ],
      [
        "a bad e-mail",
        { merchant_reference: "v", amount: "1.000", buyer_email: "not an email" },
        "buyer_email:invalid",
      ],
      [
        "a relative return URL",
        { merchant_reference: "v", amount: "1.000", return_url: "/ok" },
        "return_url:invalid",
      ],
      [
        "an over-long description",
        { merchant_reference: "v", amount: "1.000", description: "x".repeat(501) },
        "description:invalid",
      ],
      ["an unknown field", { merchant_reference: "v", amount: "1.000", colour: "red" }, "colour:invalid"],
    ];
    it.each(cases)("rejects %s", async (_label, body, expected) => {
      const res = await api().createSession(body);
      expectProblem(res, 422, "validation-error", errorsUrl());
      expect(res.body.title).toBe("Validation Error");
      expect(violationCodes(res)).toContain(expected);
    });

    // Changed with issue 17 item 4 (validation in one place): the route schema answers every
    // shape fault at once (types, required and unknown members) before the sessions service
    // judges meaning, which again reports every fault at once; the edge no longer forwards its
    // findings for the service to merge.
    it("reports every failing field at once", async () => {
      const res = await api().createSession({ amount: 5, currency: "EUR", buyer_email: 1, colour: 1 });
      expectProblem(res, 422, "validation-error", errorsUrl());
      expect(violationCodes(res)).toEqual(
        expect.arrayContaining([
          "merchant_reference:required",
          "amount:invalid_type",
          "buyer_email:invalid",
          "colour:invalid",
        ]),
      );
      const meaning = await api().createSession({
        merchant_reference: " ",
        amount: "5",
        currency: "EU",
        buyer_email: "x",
      });
      expectProblem(meaning, 422, "validation-error", errorsUrl());
      expect(violationCodes(meaning)).toEqual(
        expect.arrayContaining(["merchant_reference:invalid", "currency:invalid", "buyer_email:invalid"]),
      );
    });
  });

  it("converges 50 concurrent creates with one new reference on exactly one session", async () => {
    const api = merchantApi(gw.edgeUrl, shop.testKey);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => api.createSession({ merchant_reference: "race-1", amount: "9.990" })),
    );
    for (const r of results) expect([200, 201], r.text).toContain(r.status);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const listed = await api.listSessions({ merchant_reference: "race-1" });
    expect(listed.body.data).toHaveLength(1);
  });

  it("walks 250 sessions through pagination with no duplicates and no gaps", async () => {
    const key = await admin.createKey((await createVerifiedMerchant(admin, "Pager")).id, "test");
    const api = merchantApi(gw.edgeUrl, key.body.key);
    const created: string[] = [];
    for (let batch = 0; batch < 25; batch++) {
      const res = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          api.createSession({ merchant_reference: `page-${batch}-${i}`, amount: "1.000" }),
        ),
      );
      for (const r of res) {
        expect(r.status, r.text).toBe(201);
        created.push(r.body.id);
      }
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let previousCreatedAt = Infinity;
    for (let page = 0; page < 30; page++) {
      const res = await api.listSessions(cursor ? { limit: "37", starting_after: cursor } : { limit: "37" });
      expect(res.status, res.text).toBe(200);
      for (const s of res.body.data) {
        expect(Date.parse(s.created_at)).toBeLessThanOrEqual(previousCreatedAt);
        previousCreatedAt = Date.parse(s.created_at);
        seen.push(s.id);
      }
      if (!res.body.has_more) {
        expect(res.body.next_cursor).toBeNull();
        break;
      }
      cursor = res.body.next_cursor;
    }
    expect(seen).toHaveLength(250);
    expect(new Set(seen).size).toBe(250);
    expect(new Set(seen)).toEqual(new Set(created));
  });

  it("filters the list by status and rejects bad query values", async () => {
    const api = merchantApi(gw.edgeUrl, shop.testKey);
    const s = await api.createSession({ merchant_reference: "filter-1", amount: "2.000" });
    await api.cancelSession(s.body.id);
    const canceled = await api.listSessions({ status: "CANCELED" });
    expect(canceled.status).toBe(200);
    expect(canceled.body.data.map((x: { id: string }) => x.id)).toContain(s.body.id);
    expect(canceled.body.data.every((x: { status: string }) => x.status === "CANCELED")).toBe(true);
    const badQueries: Array<Record<string, string>> = [
      { limit: "0" },
      { limit: "101" },
      { status: "DONE" },
      { created_gte: "yesterday" },
    ];
    for (const query of badQueries) {
      expectProblem(await api.listSessions(query), 422, "validation-error", errorsUrl());
    }
  });

  it("cancels a payable session, keeps a canceled one unchanged", async () => {
    const api = merchantApi(gw.edgeUrl, shop.testKey);
    const s = await api.createSession({ merchant_reference: "cancel-1", amount: "3.000" });
    const first = await api.cancelSession(s.body.id);
    expect(first.status).toBe(200);
    expect(first.body.status).toBe("CANCELED");
    const again = await api.cancelSession(s.body.id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it("isolates merchants and modes: another account's or mode's session is not found", async () => {
    const mine = await merchantApi(gw.edgeUrl, shop.testKey).createSession({
      merchant_reference: "iso-1",
      amount: "4.000",
    });
    const id = mine.body.id;
    for (const api of [
      merchantApi(gw.edgeUrl, other.testKey),
      merchantApi(gw.edgeUrl, other.liveKey),
      merchantApi(gw.edgeUrl, shop.liveKey),
    ]) {
      expectProblem(await api.getSession(id), 404, "not-found", errorsUrl());
      expectProblem(await api.cancelSession(id), 404, "not-found", errorsUrl());
      const listed = await api.listSessions({ merchant_reference: "iso-1" });
      expect(listed.body.data).toEqual([]);
    }
    // The same reference in live mode is a different session.
    const live = await merchantApi(gw.edgeUrl, shop.liveKey).createSession({
      merchant_reference: "iso-1",
      amount: "4.000",
    });
    expect(live.status).toBe(201);
    expect(live.body.id).not.toBe(id);
    expect((await merchantApi(gw.edgeUrl, shop.testKey).getSession(id)).body.status).toBe("CREATED");
  });
});
