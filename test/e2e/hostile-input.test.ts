import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type GatewayTarget,
  startDistributedTarget,
  startEmbeddedTarget,
} from "./support/gateway-targets.js";
import { adminApi, type HttpResult, merchantApi, request } from "./support/http.js";
import { createVerifiedMerchant } from "./support/merchants.js";
import { expectProblem, violationCodes } from "./support/problem.js";

// Issue 15 items 1, 2, 3 and 9 against the running gateway, in both modes: hostile create
// bodies cost time in their size and get a capped 422 while /healthz answers; invalid UTF-8 is
// a 400; merchant URLs are strictly validated and never reach a header raw; a re-serialised
// retry is the same request.
const ADMIN_TOKEN = "adm_e2e_hostile_input_token_5c1d";
const DEMO_KEY = "sk_test_HostileInput01AbcdefghijklmnopqrstuvwxyzABCD";

const embedded = () => startEmbeddedTarget(DEMO_KEY, { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN });
const distributed = () =>
  startDistributedTarget(`e2e_hostile_${Date.now().toString(36)}`, { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN });

const emptyItems = (n: number) => `[${Array.from({ length: n }, () => "{}").join(",")}]`;

describe.each([
  ["embedded", embedded],
  ["distributed", distributed],
] as const)("hostile input, %s mode", (_mode, start) => {
  let target: GatewayTarget;
  const errorsUrl = () => `${target.url}/errors`;
  const api = () => merchantApi(target.url, target.demoKey);
  const create = (raw: string) => api().createSessionRaw(raw);

  beforeAll(async () => {
    target = await start();
  });

  afterAll(async () => {
    await target?.stop();
  });

  describe("validation cost is bounded (item 1)", () => {
    it("answers 8,000 empty items with one items violation while /healthz keeps answering", async () => {
      const body = `{"merchant_reference":"hostile-8000","amount":"1.000","items":${emptyItems(8000)}}`;
      const hostile = Promise.all([create(body), create(body), create(body)]);
      const health = await request(`${target.url}/healthz`);
      expect(health.status).toBe(200);
      for (const res of await hostile) {
        expectProblem(res, 422, "validation-error", errorsUrl());
        expect(res.body.errors).toEqual([
          { field: "items", code: "invalid", message: "items must hold at most 100 line items." },
        ]);
      }
    });

    it("reports the first 50 violations and counts the rest", async () => {
      // 100 empty items: name, quantity and unit_price missing in each, 300 violations.
      const res = await create(
        `{"merchant_reference":"hostile-100","amount":"1.000","items":${emptyItems(100)}}`,
      );
      expectProblem(res, 422, "validation-error", errorsUrl());
      expect(res.body.errors).toHaveLength(50);
      expect(res.body.errors_omitted).toBe(250);
      expect(violationCodes(res).slice(0, 3)).toEqual([
        "items[0].name:required",
        "items[0].quantity:required",
        "items[0].unit_price:required",
      ]);
    });

    it("answers 300 empty items with a 422, never a 500", async () => {
      const res = await create(
        `{"merchant_reference":"hostile-300","amount":"1.000","items":${emptyItems(300)}}`,
      );
      expectProblem(res, 422, "validation-error", errorsUrl());
    });

    it("caps 20,000 unknown members in one answer", async () => {
      const unknown = Array.from({ length: 20_000 }, (_, i) => `"x${i}":1`).join(",");
      const res = await create(`{"merchant_reference":"hostile-unknown","amount":"1.000",${unknown}}`);
      expectProblem(res, 422, "validation-error", errorsUrl());
      expect(res.body.errors).toHaveLength(50);
      expect(res.body.errors_omitted).toBe(19_950);
      expect(res.body.errors[0]).toEqual({ field: "x0", code: "invalid", message: "Unknown field." });
    });

    it("keeps error details small when the sessions service finds hundreds of faults", async () => {
      // A shape the route schema accepts, so the service judges it: 3 faults in each of 100
      // items cross gRPC (in the distributed stack, in trailers that once overflowed a frame).
      const items = Array.from({ length: 100 }, () => ({ name: "", quantity: 0, unit_price: "1,5" }));
      const res = await api().createSession({
        merchant_reference: "hostile-meaning",
        amount: "1.000",
        items,
      });
      expectProblem(res, 422, "validation-error", errorsUrl());
      expect(res.body.errors).toHaveLength(50);
      expect(res.body.errors_omitted).toBeGreaterThanOrEqual(250);
      expect(violationCodes(res).slice(0, 2)).toEqual([
        "items[0].name:required",
        "items[0].quantity:invalid",
      ]);
    });
  });

  describe("invalid UTF-8 (item 2)", () => {
    const rawCreate = (bytes: Buffer): Promise<HttpResult> =>
      fetch(`${target.url}/api/v1/gateway/sessions/`, {
        method: "POST",
        headers: { authorization: `Bearer ${target.demoKey}`, "content-type": "application/json" },
        body: bytes,
      }).then(async (r) => {
        const text = await r.text();
        return { status: r.status, headers: r.headers, text, body: JSON.parse(text) };
      });
    const withBytes = (bad: number[]) =>
      Buffer.concat([
        Buffer.from('{"merchant_reference":"utf8-'),
        Buffer.from(bad),
        Buffer.from('","amount":"1.000"}'),
      ]);

    it("refuses a body with invalid UTF-8 as 400 bad-request, so two raw references never collide", async () => {
      for (const bad of [[0xff], [0xfe], [0xc3, 0x28], [0xed, 0xa0, 0x80]]) {
        const res = await rawCreate(withBytes(bad));
        expectProblem(res, 400, "bad-request", errorsUrl());
        expect(res.body.detail).toBe("The request body is not valid UTF-8.");
      }
      // Valid UTF-8 still works, with the reference exactly as sent.
      const ok = await rawCreate(withBytes([0xc3, 0xa9]));
      expect(ok.status, ok.text).toBe(201);
      expect(ok.body.merchant_reference).toBe("utf8-é");
    });
  });

  describe("merchant URLs (item 3)", () => {
    it.each([
      ["cancel_url", "https://x;sandbox/"],
      ["cancel_url", "https://x,y.example/"],
      ["cancel_url", "https://x'y.example/"],
      ["return_url", "http:evil.example"],
      ["return_url", "https:\\\\evil.example"],
      ["return_url", "https://shop.example/\u202eexe.pdf"],
      ["return_url", "https://127.1/"],
      ["webhook_url", "https://user@shop.example/hooks"],
      ["webhook_url", "https://shop.example/hooks#fragment"],
      ["webhook_url", "javascript:alert(1)"],
    ])("refuses %s %j", async (field, url) => {
      const res = await api().createSession({
        merchant_reference: `url-${field}-${url.length}-${Math.random()}`,
        amount: "1.000",
        [field]: url,
      });
      expectProblem(res, 422, "validation-error", errorsUrl());
      expect(violationCodes(res)).toEqual([`${field}:invalid`]);
    });

    it("writes the cancel URL's origin into form-action as a source, nothing else", async () => {
      const created = await api().createSession({
        merchant_reference: "url-csp",
        amount: "1.000",
        cancel_url: "https://Shop.Example:8443/cancel?x=1#top",
      });
      expect(created.status, created.text).toBe(201);
      const page = await fetch(created.body.checkout_url);
      expect(page.status).toBe(200);
      const formAction = page.headers
        .get("content-security-policy")!
        .split("; ")
        .find((d) => d.startsWith("form-action "))!;
      expect(formAction.split(" ")).toContain("https://shop.example:8443");
      for (const source of formAction.split(" ").slice(1))
        expect(source).toMatch(/^'self'$|^https?:\/\/[a-z0-9.-]+(:\d+)?$/);
    });

    it("requires https for return and cancel URLs in live mode", async () => {
      const shop = await createVerifiedMerchant(adminApi(target.url, ADMIN_TOKEN), "Hostile Live Shop");
      const live = merchantApi(target.url, shop.liveKey);
      const res = await live.createSession({
        merchant_reference: "live-http",
        amount: "1.000",
        return_url: "http://shop.example/ok",
        cancel_url: "http://shop.example/cancel",
      });
      expectProblem(res, 422, "validation-error", errorsUrl());
      expect(violationCodes(res)).toEqual(
        expect.arrayContaining(["return_url:invalid", "cancel_url:invalid"]),
      );
    });
  });

  describe("repeated creates compare meaning (item 9)", () => {
    it("answers a re-serialised retry with the first session, metadata as first sent", async () => {
      const first =
        '{"merchant_reference":"idem-meta","amount":"2.000","metadata":{"a":1.50,"b":{"y":[1,"\\u0061"],"x":null}}}';
      const retry =
        '{ "metadata" : { "b" : { "x" : null , "y" : [ 1e0 , "a" ] } , "a" : 1.5 } , "amount" : "2.000" , "merchant_reference" : "idem-meta" }';
      const created = await create(first);
      expect(created.status, created.text).toBe(201);
      const repeated = await create(retry);
      expect(repeated.status, repeated.text).toBe(200);
      expect(repeated.body.id).toBe(created.body.id);
      expect(repeated.text).toContain('"metadata":{"a":1.50,"b":{"y":[1,"\\u0061"],"x":null}}');

      const different = await create(
        '{"merchant_reference":"idem-meta","amount":"2.000","metadata":{"a":1.51,"b":{"y":[1,"a"],"x":null}}}',
      );
      expectProblem(different, 409, "conflict", errorsUrl());
      expect(different.body.existing_session_id).toBe(created.body.id);
    });
  });
});
