import { beforeEach, describe, expect, it } from "vitest";
import {
  type Browser,
  createDashboardTestEdge,
  type DashboardTestEdge,
  hiddenFields,
  merchantWithUser,
  signIn,
} from "./dashboard-test-edge.js";

const PAGE = "/dashboard/developers/webhooks";

function secretOn(html: string): string {
  return /<code class="secret" data-secret>([^<]+)<\/code>/.exec(html)![1]!;
}

describe("dashboard webhooks", () => {
  let t: DashboardTestEdge;
  let owner: Browser;
  beforeEach(async () => {
    t = createDashboardTestEdge();
    owner = await signIn(t, (await merchantWithUser(t, "owner")).email);
  });

  it("sets the endpoint URL, shows the signing secret from the start, and rotates it with the chosen overlap", async () => {
    const page = await owner.get(PAGE);
    expect(page.statusCode).toBe(200);
    const revealed = secretOn((await owner.submit(page, `${PAGE}/secret`)).body);
    expect(revealed).toMatch(/^whsec_/);
    const bad = await owner.submit(page, `${PAGE}/endpoint`, { url: "ftp://shop.example/hooks" });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain("Not saved.");
    const saved = await owner.submit(page, `${PAGE}/endpoint`, { url: "https://shop.example/hooks" });
    expect(saved.headers.location).toBe(`${PAGE}?done=url`);
    const after = await owner.get(`${PAGE}?done=url`);
    expect(after.body).toContain('value="https://shop.example/hooks"');
    expect(secretOn((await owner.submit(after, `${PAGE}/secret`)).body)).toBe(revealed);
    const rotated = await owner.submit(after, `${PAGE}/rotate`, { overlap_seconds: "3600" });
    expect(rotated.headers.location).toBe(`${PAGE}?done=rotated`);
    const shown = await owner.get(`${PAGE}?done=rotated`);
    expect(shown.body).toContain("The previous secret also signs until 2026-01-15 11:00 UTC.");
    expect(secretOn((await owner.submit(shown, `${PAGE}/secret`)).body)).not.toBe(revealed);
  });

  it("chooses the events sent: session events by default, refunds only when ticked", async () => {
    const page = await owner.get(PAGE);
    expect(page.body).toMatch(/value="session\.succeeded" checked/);
    expect(page.body).not.toMatch(/value="refund\.\*" checked/);
    const saved = await owner.post(`${PAGE}/subscriptions`, {
      csrf: hiddenFields(page.body, `${PAGE}/subscriptions`).csrf!,
      event: "session.succeeded",
    });
    expect(saved.statusCode).toBe(303);
    const form = new URLSearchParams({ csrf: hiddenFields(page.body, `${PAGE}/subscriptions`).csrf! });
    form.append("event", "session.succeeded");
    form.append("event", "refund.*");
    const res = await t.app.inject({
      method: "POST",
      url: `${PAGE}/subscriptions`,
      payload: form.toString(),
      headers: { cookie: owner.cookieHeader, "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.statusCode).toBe(303);
    const shown = await owner.get(PAGE);
    expect(shown.body).toMatch(/value="refund\.\*" checked/);
    expect(shown.body).not.toMatch(/value="session\.failed" checked/);
  });

  it("sends a test event once a URL is set, lists it, shows its detail, and resends it", async () => {
    const page = await owner.get(PAGE);
    expect(page.body).not.toContain(`${PAGE}/test-event`);
    await owner.submit(page, `${PAGE}/endpoint`, { url: "https://shop.example/hooks" });
    const withUrl = await owner.get(PAGE);
    const sent = await owner.submit(withUrl, `${PAGE}/test-event`);
    expect(sent.headers.location).toBe(`${PAGE}?done=test`);
    const log = await owner.get(`${PAGE}?event=webhook.test`);
    const deliveryId = /\/deliveries\/(whd_[0-9A-Za-z]+)"/.exec(log.body)![1]!;
    const detail = await owner.get(`${PAGE}/deliveries/${deliveryId}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain("&quot;event&quot;:&quot;webhook.test&quot;");
    const resent = await owner.submit(detail, `${PAGE}/deliveries/${deliveryId}/resend`);
    expect(resent.headers.location).toMatch(
      new RegExp(`^${PAGE}/deliveries/whd_[0-9A-Za-z]+\\?done=resent$`),
    );
    const again = await owner.get(resent.headers.location as string);
    expect(again.body).toContain("A new attempt was queued");
    expect([...again.body.matchAll(/\/deliveries\/whd_[0-9A-Za-z]+">\d<\/a>/g)]).toHaveLength(2);
    const bad = await owner.get(`${PAGE}?from=2026-13-01`);
    expect(bad.statusCode).toBe(422);
  });

  it("another merchant's delivery is a 404; a read-only user sees the log but changes nothing and sees no secret", async () => {
    const other = await merchantWithUser(t, "owner");
    const stranger = await signIn(t, other.email);
    const theirs = await stranger.get(PAGE);
    await stranger.submit(theirs, `${PAGE}/endpoint`, { url: "https://other.example/hooks" });
    await stranger.submit(await stranger.get(PAGE), `${PAGE}/test-event`);
    const theirId = /\/deliveries\/(whd_[0-9A-Za-z]+)"/.exec((await stranger.get(PAGE)).body)![1]!;
    expect((await owner.get(`${PAGE}/deliveries/${theirId}`)).statusCode).toBe(404);
    const csrf = hiddenFields((await owner.get(PAGE)).body, "/dashboard/sign-out").csrf!;
    expect((await owner.post(`${PAGE}/deliveries/${theirId}/resend`, { csrf })).statusCode).toBe(404);

    const viewerEmail = (await merchantWithUser(t, "viewer")).email;
    const viewer = await signIn(t, viewerEmail);
    const page = await viewer.get(PAGE);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain(`${PAGE}/secret`);
    const viewerCsrf = hiddenFields(page.body, "/dashboard/sign-out").csrf!;
    for (const action of ["secret", "endpoint", "rotate", "subscriptions", "test-event", "resend"]) {
      const res = await viewer.post(`${PAGE}/${action}`, {
        csrf: viewerCsrf,
        url: "https://x.example",
        overlap_seconds: "0",
      });
      expect(res.statusCode, action).toBe(403);
      expect(res.body).not.toContain("whsec_");
    }
  });
});
