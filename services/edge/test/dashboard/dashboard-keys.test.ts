import { beforeEach, describe, expect, it } from "vitest";
import { ADMIN_TOKEN } from "../fakes/edge-test-harness.js";
import {
  type Browser,
  createDashboardTestEdge,
  type DashboardTestEdge,
  hiddenFields,
  merchantWithUser,
  signIn,
} from "./dashboard-test-edge.js";

const KEYS = "/dashboard/developers/api-keys";

/** The key shown on a secret page. */
function secretOn(html: string): string {
  const match = /<code class="secret" data-secret>([^<]+)<\/code>/.exec(html);
  if (!match) throw new Error("the page shows no key");
  return match[1]!;
}

describe("dashboard API keys", () => {
  let t: DashboardTestEdge;
  let merchantId: string;
  let owner: Browser;
  beforeEach(async () => {
    t = createDashboardTestEdge();
    const made = await merchantWithUser(t, "owner");
    merchantId = made.merchantId;
    owner = await signIn(t, made.email);
  });

  const apiCall = (key: string) =>
    t.app.inject({
      method: "GET",
      url: "/api/v1/gateway/sessions/list/",
      headers: { authorization: `Bearer ${key}` },
    });

  it("when a test key is created, then it works on the API and is shown again, masked in the list", async () => {
    const created = await owner.submit(await owner.get(KEYS), KEYS);
    const key = secretOn(created.body);
    expect(key).toMatch(/^sk_test_[0-9A-Za-z]{44}$/);
    expect((await apiCall(key)).statusCode).toBe(200);
    const list = await owner.get(KEYS);
    expect(list.body).not.toContain(key);
    expect(list.body).toContain(`<code>${key.slice(0, 20)}…</code>`);
    const keyId = /\/dashboard\/developers\/api-keys\/(key_[0-9A-Za-z]+)\/reveal/.exec(list.body)![1]!;
    const shown = await owner.submit(list, `${KEYS}/${keyId}/reveal`);
    expect(secretOn(shown.body)).toBe(key);
    expect(shown.headers["cache-control"]).toBe("no-store");
  });

  it("when a live key is created, then it is shown once: never in the list, never revealable, not after reload", async () => {
    await t.accounts.verifyMerchant({ merchantId });
    const csrf = hiddenFields((await owner.get(KEYS)).body, "/dashboard/sign-out").csrf!;
    await owner.post("/dashboard/mode", { csrf, mode: "live" });
    const created = await owner.submit(await owner.get(KEYS), KEYS);
    const key = secretOn(created.body);
    expect(key).toMatch(/^sk_live_/);
    expect(created.body).toContain("a live key is shown only this once");
    const list = await owner.get(KEYS);
    expect(list.body).not.toContain(key);
    expect(list.body).not.toContain("/reveal");
    const keyId = /api-keys\/(key_[0-9A-Za-z]+)\/roll/.exec(list.body)![1]!;
    const reveal = await owner.post(`${KEYS}/${keyId}/reveal`, { csrf });
    expect(reveal.statusCode).toBe(409);
    expect(reveal.body).not.toContain(key);
  });

  it("when a key is rolled with no overlap, then the old key stops at once on this edge, though it was cached", async () => {
    const key = secretOn((await owner.submit(await owner.get(KEYS), KEYS)).body);
    expect((await apiCall(key)).statusCode).toBe(200);
    const list = await owner.get(KEYS);
    const keyId = /api-keys\/(key_[0-9A-Za-z]+)\/roll/.exec(list.body)![1]!;
    const rolled = await owner.submit(list, `${KEYS}/${keyId}/roll`, { overlap_seconds: "0" });
    const fresh = secretOn(rolled.body);
    expect((await apiCall(key)).statusCode).toBe(401);
    expect((await apiCall(fresh)).statusCode).toBe(200);
  });

  it("when a key is rolled with an hour's overlap, then both work until the hour is over", async () => {
    const key = secretOn((await owner.submit(await owner.get(KEYS), KEYS)).body);
    const list = await owner.get(KEYS);
    const keyId = /api-keys\/(key_[0-9A-Za-z]+)\/roll/.exec(list.body)![1]!;
    const fresh = secretOn(
      (await owner.submit(list, `${KEYS}/${keyId}/roll`, { overlap_seconds: "3600" })).body,
    );
    expect((await apiCall(key)).statusCode).toBe(200);
    expect((await apiCall(fresh)).statusCode).toBe(200);
    expect((await owner.get(KEYS)).body).toContain("Active until 2026-01-15 11:00 UTC");
    t.clock.advance(3_600_000);
    expect((await apiCall(key)).statusCode).toBe(401);
    expect((await apiCall(fresh)).statusCode).toBe(200);
  });

  it("when a key is revoked after the confirmation, then it stops at once", async () => {
    const key = secretOn((await owner.submit(await owner.get(KEYS), KEYS)).body);
    const list = await owner.get(KEYS);
    const keyId = /api-keys\/(key_[0-9A-Za-z]+)\/roll/.exec(list.body)![1]!;
    const confirm = await owner.get(`${KEYS}/${keyId}/revoke`);
    expect(confirm.body).toContain("Revoke this key now?");
    const done = await owner.submit(confirm, `${KEYS}/${keyId}/revoke`);
    expect(done.headers.location).toBe(`${KEYS}?done=revoked`);
    expect((await apiCall(key)).statusCode).toBe(401);
    expect((await owner.get(done.headers.location as string)).body).toContain("Revoked");
  });

  it("when another merchant's key or a read-only user is involved, then 404 or 403 and nothing changes", async () => {
    const other = await merchantWithUser(t, "owner");
    const theirs = await t.accounts.createApiKey({ merchantId: other.merchantId, livemode: false });
    const csrf = hiddenFields((await owner.get(KEYS)).body, "/dashboard/sign-out").csrf!;
    for (const action of ["reveal", "roll", "revoke"]) {
      const res = await owner.post(`${KEYS}/${theirs.apiKey!.id}/${action}`, { csrf, overlap_seconds: "0" });
      expect(res.statusCode, action).toBe(404);
      expect(res.body).not.toContain(theirs.secret);
    }
    expect((await apiCall(theirs.secret)).statusCode).toBe(200);

    const viewerEmail = (await merchantWithUser(t, "viewer")).email;
    const viewer = await signIn(t, viewerEmail);
    const viewerPage = await viewer.get(KEYS);
    expect(viewerPage.body).not.toContain("/reveal");
    const viewerCsrf = hiddenFields(viewerPage.body, "/dashboard/sign-out").csrf!;
    expect((await viewer.post(KEYS, { csrf: viewerCsrf })).statusCode).toBe(403);
  });
});

describe("business verification from the dashboard and the operator's decision", () => {
  it("submitted in the dashboard, rejected then approved by the operator: the dashboard shows each state, then live mode opens", async () => {
    const t = createDashboardTestEdge();
    const { merchantId, email } = await merchantWithUser(t, "owner");
    const owner = await signIn(t, email);
    const page = await owner.get("/dashboard/settings/business");
    expect(page.body).toContain("Not submitted");
    const bad = await owner.submit(page, "/dashboard/settings/business", {
      legal_name: "Al Kitab SARL",
      registration_number: "B123",
      country: "Tunisia",
      address: "Tunis",
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('id="country" name="country" type="text" required aria-invalid="true"');
    const sent = await owner.submit(bad, "/dashboard/settings/business", {
      legal_name: "Al Kitab SARL",
      registration_number: "B123",
      country: "tn",
      address: "12 rue de Marseille\nTunis",
      website: "",
    });
    expect(sent.headers.location).toBe("/dashboard/settings/business?sent=1");
    expect((await owner.get("/dashboard/settings/business")).body).toContain("Waiting for review");

    const admin = (method: "GET" | "POST", url: string, payload?: unknown) =>
      t.app.inject({
        method,
        url,
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          ...(payload ? { "content-type": "application/json" } : {}),
        },
        ...(payload ? { payload: JSON.stringify(payload) } : {}),
      });
    const queue = await admin("GET", "/admin/v1/business-verifications");
    expect(queue.json().data).toEqual([
      expect.objectContaining({ merchant_id: merchantId, status: "pending", country: "TN", website: null }),
    ]);
    expect(
      (await admin("POST", `/admin/v1/merchants/${merchantId}/business-verification/reject`, {})).statusCode,
    ).toBe(422);
    const rejected = await admin("POST", `/admin/v1/merchants/${merchantId}/business-verification/reject`, {
      reason: "The <registration> does not match.",
    });
    expect(rejected.json()).toMatchObject({
      status: "rejected",
      reason: "The <registration> does not match.",
    });
    const shown = await owner.get("/dashboard/settings/business");
    expect(shown.body).toContain("Rejected");
    expect(shown.body).toContain("The &lt;registration&gt; does not match.");
    const corrected = await owner.submit(shown, "/dashboard/settings/business", {
      legal_name: "Al Kitab SARL",
      registration_number: "B1234567",
      country: "TN",
      address: "12 rue de Marseille\nTunis",
    });
    expect(corrected.statusCode).toBe(303);
    const approved = await admin("POST", `/admin/v1/merchants/${merchantId}/business-verification/approve`);
    expect(approved.json()).toMatchObject({ status: "approved", reason: null });
    const after = await owner.get("/dashboard/settings/business");
    expect(after.body).toContain("Verified");
    expect(after.body).not.toContain('action="/dashboard/settings/business"');
    expect(after.body).toContain("Switch to Live mode");
  });
});
