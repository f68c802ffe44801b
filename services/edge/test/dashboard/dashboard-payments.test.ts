import { create } from "@bufbuild/protobuf";
import { AccountScopeSchema, SessionStatus } from "@gateway/proto";
import { beforeEach, describe, expect, it } from "vitest";
import {
  addUser,
  type Browser,
  createDashboardTestEdge,
  type DashboardTestEdge,
  hiddenFields,
  merchantWithUser,
  signIn,
} from "./dashboard-test-edge.js";

/** A session of the merchant, made through the sessions service as the API would. */
async function sessionOf(t: DashboardTestEdge, merchantId: string, reference: string, amount = "100.000") {
  const { session } = await t.sessions.createSession({
    scope: create(AccountScopeSchema, { merchantId, livemode: false }),
    merchantReference: reference,
    amount,
    items: [],
    inputViolations: [],
  } as never);
  return session!;
}

describe("dashboard payments", () => {
  let t: DashboardTestEdge;
  let merchantId: string;
  let owner: Browser;
  beforeEach(async () => {
    t = createDashboardTestEdge();
    const made = await merchantWithUser(t, "owner");
    merchantId = made.merchantId;
    owner = await signIn(t, made.email);
  });

  it("lists the merchant's sessions, filters them by status, and opens one with its attempt", async () => {
    const open = await sessionOf(t, merchantId, "order-open");
    const paid = await sessionOf(t, merchantId, "order-paid");
    await t.sessions.pay(paid.id);
    const list = await owner.get("/dashboard/payments");
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain("order-open");
    expect(list.body).toContain("order-paid");
    const succeeded = await owner.get("/dashboard/payments?status=SUCCEEDED");
    expect(succeeded.body).toContain("order-paid");
    expect(succeeded.body).not.toContain("order-open");
    const bad = await owner.get("/dashboard/payments?from=2026-02-31&amount=1.5");
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain("Write the date as YYYY-MM-DD.");
    expect(bad.body).toContain('aria-invalid="true"');
    const detail = await owner.get(`/dashboard/payments/${paid.id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain("Succeeded");
    expect(detail.body).toContain("visa •••• 4242");
    expect((await owner.get(`/dashboard/payments/${open.id}`)).body).toContain("Cancel this payment");
  });

  it("when a session belongs to another merchant, then its page, cancel and refund are 404 and nothing changes", async () => {
    const other = await merchantWithUser(t, "owner");
    const theirs = await sessionOf(t, other.merchantId, "their-order");
    expect((await owner.get(`/dashboard/payments/${theirs.id}`)).statusCode).toBe(404);
    expect((await owner.get(`/dashboard/payments/${theirs.id}/cancel`)).statusCode).toBe(404);
    const payments = await owner.get("/dashboard/payments");
    const csrf = hiddenFields(payments.body, "/dashboard/sign-out").csrf!;
    expect((await owner.post(`/dashboard/payments/${theirs.id}/cancel`, { csrf })).statusCode).toBe(404);
    expect((await owner.get("/dashboard/payments")).body).not.toContain("their-order");
    expect((await t.sessions.get(theirs.id)).status).toBe(SessionStatus.CREATED);
  });

  it("cancels a session after a confirmation step", async () => {
    const session = await sessionOf(t, merchantId, "to-cancel");
    const confirm = await owner.get(`/dashboard/payments/${session.id}/cancel`);
    expect(confirm.body).toContain("Cancel this payment? The buyer will no longer be able to pay it.");
    expect((await t.sessions.get(session.id)).status).toBe(SessionStatus.CREATED);
    const done = await owner.submit(confirm, `/dashboard/payments/${session.id}/cancel`);
    expect(done.headers.location).toBe(`/dashboard/payments/${session.id}?done=canceled`);
    expect((await t.sessions.get(session.id)).status).toBe(SessionStatus.CANCELED);
    expect((await owner.get(done.headers.location as string)).body).toContain("The payment was canceled.");
  });

  it("refunds part of a paid session after a review, once even when the confirmation is sent twice", async () => {
    const session = await sessionOf(t, merchantId, "to-refund");
    await t.sessions.pay(session.id);
    const detail = await owner.get(`/dashboard/payments/${session.id}`);
    const review = await owner.submit(detail, `/dashboard/payments/${session.id}/refund`, {
      type: "PARTIAL",
      amount: "10.500",
      reason: "damaged <box>",
    });
    expect(review.statusCode).toBe(200);
    expect(review.body).toContain("Refund 10.500 TND?");
    expect(t.refunds.refunds).toHaveLength(0);
    const first = await owner.submit(review, `/dashboard/payments/${session.id}/refund`);
    const again = await owner.submit(review, `/dashboard/payments/${session.id}/refund`);
    expect(first.headers.location).toBe(`/dashboard/payments/${session.id}?done=refunded`);
    expect(again.headers.location).toBe(`/dashboard/payments/${session.id}?done=refunded`);
    expect(t.refunds.refunds).toHaveLength(1);
    const after = await owner.get(`/dashboard/payments/${session.id}?done=refunded`);
    expect(after.body).toContain("The refund was recorded.");
    expect(after.body).toMatch(/Partial refund<\/th><td class="num"><bdi dir="ltr">10\.500&nbsp;TND/);
  });

  it("when the refund form is wrong, then 422 with the reason and nothing is refunded", async () => {
    const session = await sessionOf(t, merchantId, "bad-refund");
    await t.sessions.pay(session.id);
    const detail = await owner.get(`/dashboard/payments/${session.id}`);
    const res = await owner.submit(detail, `/dashboard/payments/${session.id}/refund`, {
      type: "PARTIAL",
      amount: "10.5",
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain("Write the amount in TND with 3 decimals, for example 12.500.");
    expect(t.refunds.refunds).toHaveLength(0);
  });

  it("when a form carries no CSRF token or another session's, then 403 and nothing changes", async () => {
    const session = await sessionOf(t, merchantId, "csrf-target");
    const someoneElse = await signIn(t, await addUser(t, merchantId, "owner"));
    const theirToken = hiddenFields(
      (await someoneElse.get("/dashboard/payments")).body,
      "/dashboard/sign-out",
    ).csrf!;
    const missing = await owner.post(`/dashboard/payments/${session.id}/cancel`, {});
    const foreign = await owner.post(`/dashboard/payments/${session.id}/cancel`, { csrf: theirToken });
    for (const res of [missing, foreign]) {
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain("This form could not be verified");
    }
    expect((await t.sessions.get(session.id)).status).toBe(SessionStatus.CREATED);
  });
});

describe("dashboard roles", () => {
  it("when the user is read-only, then cancel, refund and rates are refused with a 403 page and nothing changes", async () => {
    const t = createDashboardTestEdge();
    const { merchantId, email } = await merchantWithUser(t, "viewer");
    const viewer = await signIn(t, email);
    const open = await sessionOf(t, merchantId, "viewer-open");
    const paid = await sessionOf(t, merchantId, "viewer-paid");
    await t.sessions.pay(paid.id);
    const page = await viewer.get(`/dashboard/payments/${open.id}`);
    expect(page.body).not.toContain("Cancel this payment");
    expect((await viewer.get(`/dashboard/payments/${paid.id}`)).body).not.toContain("Review the refund");
    const csrf = hiddenFields(page.body, "/dashboard/sign-out").csrf!;
    const cancel = await viewer.post(`/dashboard/payments/${open.id}/cancel`, { csrf });
    const refund = await viewer.post(`/dashboard/payments/${paid.id}/refund`, {
      csrf,
      type: "FULL",
      confirm: "yes",
    });
    const rate = await viewer.post("/dashboard/settings/currencies", {
      csrf,
      currency: "EUR",
      rate: "3.300000",
    });
    for (const res of [cancel, refund, rate]) {
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain("Your role does not allow this action. Nothing was changed.");
    }
    expect((await t.sessions.get(open.id)).status).toBe(SessionStatus.CREATED);
    expect(t.refunds.refunds).toHaveLength(0);
    expect((await viewer.get("/dashboard/settings/currencies")).body).toContain("No rate is set");
  });

  it("when a developer sets a rate, then it is listed with who set it and when, and in the history", async () => {
    const t = createDashboardTestEdge();
    const { email } = await merchantWithUser(t, "developer", "dev@shop.example");
    const developer = await signIn(t, email);
    const settings = await developer.get("/dashboard/settings/currencies");
    const saved = await developer.submit(settings, "/dashboard/settings/currencies", {
      currency: "eur",
      rate: "3.3",
    });
    expect(saved.headers.location).toBe("/dashboard/settings/currencies?saved=EUR");
    const page = await developer.get(saved.headers.location as string);
    expect(page.body).toContain("The EUR rate is saved.");
    expect(page.body).toContain("3.300000");
    expect(page.body).toContain("dev@shop.example");
    const bad = await developer.submit(page, "/dashboard/settings/currencies", {
      currency: "TND",
      rate: "-1",
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain("The rate was not saved");
  });

  it("lists the merchant's users with their roles, never another merchant's", async () => {
    const t = createDashboardTestEdge();
    const { merchantId, email } = await merchantWithUser(t, "owner", "boss@shop.example");
    await addUser(t, merchantId, "viewer", "reader@shop.example");
    await merchantWithUser(t, "owner", "stranger@elsewhere.example");
    const users = await (await signIn(t, email)).get("/dashboard/users");
    expect(users.body).toContain("reader@shop.example");
    expect(users.body).toContain("Read-only");
    expect(users.body).not.toContain("stranger@elsewhere.example");
  });

  it("when the merchant is not verified, then live mode stays closed (the switch is refused)", async () => {
    const t = createDashboardTestEdge();
    const { merchantId, email } = await merchantWithUser(t, "owner");
    const owner = await signIn(t, email);
    const page = await owner.get("/dashboard/payments");
    expect(page.body).toContain("Live mode opens once your business is verified.");
    const csrf = hiddenFields(page.body, "/dashboard/sign-out").csrf!;
    expect((await owner.post("/dashboard/mode", { csrf, mode: "live" })).statusCode).toBe(403);
    await t.accounts.verifyMerchant({ merchantId });
    const switched = await owner.post("/dashboard/mode", { csrf, mode: "live" });
    expect(switched.statusCode).toBe(303);
    expect((await owner.get("/dashboard/payments")).body).toContain('<span class="badge">Live mode</span>');
  });
});
