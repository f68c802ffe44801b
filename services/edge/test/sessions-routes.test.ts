import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { AttemptStatus, PaymentAttemptSchema, type Session, SessionStatus } from "@gateway/proto";
import { beforeEach, describe, expect, it } from "vitest";
import { bearer, createTestEdge, type TestEdge } from "./fakes/edge-test-harness.js";
import { expectProblem } from "./problem-assertions.js";

const SESSIONS = "/api/v1/gateway/sessions/";

describe("sessions API", () => {
  let t: TestEdge;
  let headers: Record<string, string>;

  const post = (payload: unknown) =>
    t.app.inject({
      method: "POST",
      url: SESSIONS,
      headers,
      payload: typeof payload === "string" ? payload : JSON.stringify(payload),
    });

  beforeEach(async () => {
    t = createTestEdge();
    headers = { ...bearer((await t.accounts.issueKey()).secret), "content-type": "application/json" };
  });

  describe("create", () => {
    it("when the session is new, then 201 with the session detail of spec 2.1 in field order", async () => {
      const res = await post({
        merchant_reference: "order-1001",
        amount: "12.50",
        currency: "EUR",
        order_id: "A-1",
        description: "Two books",
        items: [
          { name: "Book", quantity: 2, unit_price: "6.25", description: "Paperback" },
          // Unit prices are greater than zero (docs/api/sessions.md); the old fake let "0.00" by.
          { name: "Bag", quantity: 1, unit_price: "0.10" },
        ],
        buyer_first_name: "Amal",
        buyer_last_name: "Ben Salah",
        buyer_email: "amal@example.com",
        buyer_phone: "+21620000000",
        return_url: "https://shop.example/ok",
        cancel_url: "https://shop.example/cancel",
        webhook_url: "https://shop.example/hooks",
        max_attempts: 5,
      });
      expect(res.statusCode).toBe(201);
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
      const body = res.json();
      expect(res.headers.location).toBe(`/api/v1/gateway/sessions/${body.id}/`);
      expect(Object.keys(body)).toEqual([
        "id",
        "merchant_reference",
        "order_number",
        "order_id",
        "amount",
        "currency",
        "original",
        "description",
        "items",
        "status",
        "livemode",
        "buyer_first_name",
        "buyer_last_name",
        "buyer_email",
        "buyer_phone",
        "metadata",
        "return_url",
        "cancel_url",
        "webhook_url",
        "max_attempts",
        "checkout_url",
        "expires_at",
        "completed_at",
        "created_at",
        "attempts",
      ]);
      expect(body).toMatchObject({
        merchant_reference: "order-1001",
        order_id: "A-1",
        amount: "41.250",
        currency: "TND",
        original: { amount: "12.50", currency: "EUR", rate: "3.300000" },
        description: "Two books",
        items: [
          { name: "Book", quantity: 2, unit_price: "6.25", description: "Paperback" },
          { name: "Bag", quantity: 1, unit_price: "0.10", description: null },
        ],
        status: "CREATED",
        livemode: false,
        buyer_first_name: "Amal",
        buyer_last_name: "Ben Salah",
        buyer_email: "amal@example.com",
        buyer_phone: "+21620000000",
        metadata: null,
        return_url: "https://shop.example/ok",
        cancel_url: "https://shop.example/cancel",
        webhook_url: "https://shop.example/hooks",
        max_attempts: 5,
        expires_at: "2026-01-16T10:00:00.000Z",
        completed_at: null,
        created_at: "2026-01-15T10:00:00.000Z",
        attempts: [],
      });
      expect(body.id).toMatch(/^ps_/);
      expect(body.checkout_url).toMatch(/^http/);
    });

    it("when the merchant_reference repeats, then 200 with the same session", async () => {
      const first = await post({ merchant_reference: "same", amount: "3.000" });
      const again = await post({ merchant_reference: "same", amount: "3.000" });
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(200);
      expect(again.headers.location).toBeUndefined();
      expect(again.json().id).toBe(first.json().id);
    });

    it("when optional fields are null, then they count as absent", async () => {
      const res = await post({
        merchant_reference: "nulls",
        amount: "3.000",
        currency: null,
        order_id: null,
        items: null,
        metadata: null,
        max_attempts: null,
      });
      expect(res.statusCode).toBe(201);
      const sent = t.sessions.createRequests[0]!;
      expect(sent.currency).toBeUndefined();
      expect(sent.orderId).toBeUndefined();
      expect(sent.metadataJson).toBeUndefined();
      expect(sent.maxAttempts).toBeUndefined();
    });

    it("when the amount is a JSON number, then 422 invalid_type on amount", async () => {
      const res = await post({ merchant_reference: "num", amount: 10.5 });
      const doc = expectProblem(res, 422, "validation-error", "Validation Error");
      expect(doc.errors).toEqual([{ field: "amount", code: "invalid_type", message: expect.any(String) }]);
      expect(t.sessions.count).toBe(0);
    });

    it("when a field is unknown, then 422 invalid on that field and nothing is created", async () => {
      const res = await post({ merchant_reference: "unk", amount: "1.000", colour: "red" });
      const doc = expectProblem(res, 422, "validation-error", "Validation Error");
      expect(doc.errors).toEqual([{ field: "colour", code: "invalid", message: "Unknown field." }]);
      expect(t.sessions.count).toBe(0);
    });

    it("when members have the wrong JSON type, then each is reported and left out of the request", async () => {
      const res = await post({
        merchant_reference: 42,
        amount: "1.000",
        description: ["x"],
        metadata: [1, 2],
        max_attempts: 2.5,
        items: "none",
        buyer_email: false,
      });
      const doc = expectProblem(res, 422, "validation-error", "Validation Error");
      expect((doc.errors as Array<{ field: string; code: string }>).map((e) => [e.field, e.code])).toEqual([
        ["merchant_reference", "invalid"],
        ["description", "invalid"],
        ["buyer_email", "invalid"],
        ["items", "invalid"],
        ["metadata", "invalid"],
        ["max_attempts", "invalid"],
      ]);
      // Changed with issue 17 item 4: the route schema answers shape faults itself; nothing is sent.
      expect(t.sessions.createRequests).toHaveLength(0);
    });

    it("when line items are malformed, then violations name items[i].field", async () => {
      const res = await post({
        merchant_reference: "items",
        amount: "1.000",
        items: [
          { name: "ok", quantity: 1, unit_price: "1.000" },
          { name: "bad", quantity: "2", unit_price: 1.5, colour: "red" },
          "not an item",
          { quantity: 1.5 },
        ],
      });
      const doc = expectProblem(res, 422, "validation-error", "Validation Error");
      expect((doc.errors as Array<{ field: string; code: string }>).map((e) => [e.field, e.code])).toEqual([
        ["items[1].quantity", "invalid"],
        ["items[1].unit_price", "invalid"],
        ["items[1].colour", "invalid"],
        ["items[2]", "invalid"],
        ["items[3].name", "required"],
        ["items[3].quantity", "invalid"],
        ["items[3].unit_price", "required"],
      ]);
      // Changed with issue 17 item 4: answered by the route schema, the service is not asked.
      expect(t.sessions.createRequests).toHaveLength(0);
    });

    // Changed with issue 17 item 4: the edge no longer forwards its findings (input_violations)
    // for the service to add its own. A body the route schema refuses is answered with the
    // schema's violations; one it accepts gets the service's, so each fault is reported once.
    it("when the schema and the service would both find problems, then the schema's are answered and nothing is sent", async () => {
      const res = await post({
        merchant_reference: "both",
        amount: "1.5",
        colour: "red",
        max_attempts: 99,
        items: [{ name: "", quantity: 0, unit_price: "1" }],
      });
      const doc = expectProblem(res, 422, "validation-error", "Validation Error");
      expect((doc.errors as Array<{ field: string; code: string }>).map((e) => [e.field, e.code])).toEqual([
        ["colour", "invalid"],
      ]);
      expect(t.sessions.createRequests).toHaveLength(0);
      const meaning = await post({
        merchant_reference: "both",
        amount: "1.5",
        max_attempts: 99,
        items: [{ name: "", quantity: 0, unit_price: "1" }],
      });
      const doc2 = expectProblem(meaning, 422, "validation-error", "Validation Error");
      expect((doc2.errors as Array<{ field: string; code: string }>).map((e) => [e.field, e.code])).toEqual([
        ["amount", "invalid_precision"],
        ["items[0].name", "required"],
        ["items[0].quantity", "invalid"],
        // The real service also checks a unit price's precision, which the old fake did not.
        ["items[0].unit_price", "invalid_precision"],
        ["max_attempts", "invalid"],
      ]);
      expect(t.sessions.count).toBe(0);
    });

    it("when required fields are missing, then each is reported once as required", async () => {
      const doc = expectProblem(await post({}), 422, "validation-error", "Validation Error");
      expect(doc.errors).toEqual([
        { field: "merchant_reference", code: "required", message: "This field is required." },
        { field: "amount", code: "required", message: "This field is required." },
      ]);
    });

    it("returns metadata exactly as sent: key order, number spelling, dotted and $ keys, nested arrays", async () => {
      const metadata = '{"b":1,"a":"x.y","$k":[[1,2]],"n":1.50,"2":true}';
      const res = await post(`{"merchant_reference":"meta","amount":"10.000","metadata":${metadata}}`);
      expect(res.statusCode).toBe(201);
      expect(res.body).toContain(`"metadata":${metadata},`);
      expect(t.sessions.createRequests[0]!.metadataJson).toBe(metadata);

      const id = res.json().id as string;
      const read = await t.app.inject({ method: "GET", url: `${SESSIONS}${id}/`, headers });
      expect(read.body).toContain(`"metadata":${metadata},`);
      const list = await t.app.inject({ method: "GET", url: `${SESSIONS}list/`, headers });
      expect(list.body).toContain(`"metadata":${metadata},`);
      expect(() => JSON.parse(list.body)).not.toThrow();
    });

    it("keeps metadata with tricky strings and inner whitespace intact", async () => {
      const metadata = String.raw`{ "q": "a \"quoted\" }{ value", "u": "\u00e9\n", "deep": { "x": [ 1.0 , -0, 2E3 ] } }`;
      const res = await post(
        `{ "merchant_reference" : "tricky", "metadata" : ${metadata} , "amount":"2.000" }`,
      );
      expect(res.statusCode).toBe(201);
      expect(res.body).toContain(`"metadata":${metadata},`);
      expect(res.json().metadata).toEqual(JSON.parse(metadata));
    });
  });

  describe("retrieve", () => {
    it("maps attempts with null for empty card and failure fields", async () => {
      const id = (await post({ merchant_reference: "att", amount: "5.000" })).json().id as string;
      // The service answers with one declined attempt and one just started: the edge maps both.
      t.sessions.rewriteAnswer = (_method, answer) => {
        const session = answer.session as Session;
        session.status = SessionStatus.PROCESSING;
        session.attempts = [
          create(PaymentAttemptSchema, {
            id: "pa_1",
            attemptNumber: 1,
            status: AttemptStatus.FAILED,
            cardBrand: "visa",
            cardLastFour: "0002",
            failureCode: "card_declined",
            createdAt: timestampFromDate(new Date(Date.UTC(2026, 0, 15, 10, 1, 2, 345))),
          }),
          create(PaymentAttemptSchema, {
            id: "pa_2",
            attemptNumber: 2,
            status: AttemptStatus.INITIATED,
            createdAt: timestampFromDate(new Date(Date.UTC(2026, 0, 15, 10, 2))),
          }),
        ];
      };
      const res = await t.app.inject({ method: "GET", url: `${SESSIONS}${id}/`, headers });
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe("PROCESSING");
      expect(res.json().attempts).toEqual([
        {
          id: "pa_1",
          attempt_number: 1,
          status: "FAILED",
          card_brand: "visa",
          card_last_four: "0002",
          failure_code: "card_declined",
          fee_amount: null,
          net_amount: null,
          created_at: "2026-01-15T10:01:02.345Z",
        },
        {
          id: "pa_2",
          attempt_number: 2,
          status: "INITIATED",
          card_brand: null,
          card_last_four: null,
          failure_code: null,
          fee_amount: null,
          net_amount: null,
          created_at: "2026-01-15T10:02:00.000Z",
        },
      ]);
    });
  });

  describe("cancel", () => {
    let id: string;
    beforeEach(async () => {
      id = (await post({ merchant_reference: "to-cancel", amount: "1.000" })).json().id as string;
    });

    it("when there is no body, then the session is canceled and checkout_url is null", async () => {
      const res = await t.app.inject({
        method: "POST",
        url: `${SESSIONS}${id}/cancel/`,
        headers: { authorization: headers.authorization! },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id,
        status: "CANCELED",
        checkout_url: null,
        completed_at: "2026-01-15T10:00:00.000Z",
      });
    });

    it.each([["{}"], [""], ["  "]])("when the body is %j, then it is accepted", async (payload) => {
      const res = await t.app.inject({ method: "POST", url: `${SESSIONS}${id}/cancel/`, headers, payload });
      expect(res.statusCode).toBe(200);
    });

    it("when cancelled again, then 200 with the session unchanged", async () => {
      await t.app.inject({ method: "POST", url: `${SESSIONS}${id}/cancel/`, headers, payload: "{}" });
      const again = await t.app.inject({
        method: "POST",
        url: `${SESSIONS}${id}/cancel/`,
        headers,
        payload: "{}",
      });
      expect(again.statusCode).toBe(200);
      expect(again.json().status).toBe("CANCELED");
    });

    it("when the body has members, then 422 unknown field; when it is not an object, then 400", async () => {
      const members = await t.app.inject({
        method: "POST",
        url: `${SESSIONS}${id}/cancel/`,
        headers,
        payload: '{"reason":"x"}',
      });
      expect(expectProblem(members, 422, "validation-error", "Validation Error").errors).toEqual([
        { field: "reason", code: "invalid", message: "Unknown field." },
      ]);
      expectProblem(
        await t.app.inject({ method: "POST", url: `${SESSIONS}${id}/cancel/`, headers, payload: "[]" }),
        400,
        "bad-request",
        "Bad Request",
      );
      expect((await t.sessions.get(id)).status).toBe(SessionStatus.CREATED);
    });
  });
});
