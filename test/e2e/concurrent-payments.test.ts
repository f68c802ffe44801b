import { type DistributedGateway, startDistributedGateway } from "@gateway/launcher";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MerchantApi, merchantApi } from "./support/http.js";
import { postPayForm, readPayForm } from "./support/pay-form.js";

// Issue 15 item 11, on the distributed stack: Pays and cancels on one session never queue
// behind another request's acquirer call. 50 parallel Pays start one attempt and no request
// gets a 5xx (they used to wait out the 15 s deadline and get 503).

describe("concurrent Pays and cancels on one session (distributed stack)", () => {
  let gw: DistributedGateway;
  let api: MerchantApi;
  let references = 0;
  const reference = () => `concurrent-${Date.now().toString(36)}-${++references}`;

  beforeAll(async () => {
    gw = await startDistributedGateway({
      mongodbUrl: process.env.MONGODB_URL,
      natsUrl: process.env.NATS_URL,
      databasePrefix: `e2e_concurrent_${Date.now().toString(36)}`,
    });
    api = merchantApi(gw.edgeUrl, gw.demoTestKey!);
  });

  afterAll(async () => {
    await gw?.stop();
  });

  it("50 parallel Pays start exactly one attempt: each gets its card page or the 'payment in progress' page, never a 5xx", async () => {
    const created = await api.createSession({ merchant_reference: reference(), amount: "7.000" });
    expect(created.status, created.text).toBe(201);
    const form = await readPayForm(created.body.checkout_url);
    const answers = await Promise.all(Array.from({ length: 50 }, () => postPayForm(form)));
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.filter((s) => s >= 500),
      JSON.stringify(statuses),
    ).toEqual([]);
    for (const answer of answers) {
      if (answer.status === 303) expect(answer.location).toMatch(/^https?:\/\//);
      else {
        expect(answer.status, answer.page.slice(0, 300)).toBe(409);
        expect(answer.page).toContain("Payment in progress");
      }
    }
    const cardPages = new Set(answers.filter((a) => a.status === 303).map((a) => a.location));
    expect(cardPages.size).toBe(1);
    const session = (await api.getSession(created.body.id)).body;
    expect(session.attempts).toHaveLength(1);
    expect(session.status).toBe("PROCESSING");
    // Once registered, a further Pay resumes the same card page.
    const again = await postPayForm(form);
    expect(again.status).toBe(303);
    expect(cardPages.has(again.location)).toBe(true);
  });

  it("25 Pays and 25 cancels at once: no 5xx, the session ends CANCELED with at most one attempt", async () => {
    const created = await api.createSession({ merchant_reference: reference(), amount: "8.000" });
    expect(created.status, created.text).toBe(201);
    const form = await readPayForm(created.body.checkout_url);
    const [pays, cancels] = await Promise.all([
      Promise.all(Array.from({ length: 25 }, () => postPayForm(form))),
      Promise.all(Array.from({ length: 25 }, () => api.cancelSession(created.body.id))),
    ]);
    const statuses = [...pays.map((p) => p.status), ...cancels.map((c) => c.status)];
    expect(
      statuses.filter((s) => s >= 500),
      JSON.stringify(statuses),
    ).toEqual([]);
    for (const cancel of cancels) expect(cancel.status, cancel.text).toBe(200);
    const session = (await api.getSession(created.body.id)).body;
    expect(session.status).toBe("CANCELED");
    expect(session.attempts.length).toBeLessThanOrEqual(1);
  });
});
