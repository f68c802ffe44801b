import { beforeEach, describe, expect, it } from "vitest";
import {
  Browser,
  createDashboardTestEdge,
  type DashboardTestEdge,
  merchantWithUser,
  PASSWORD,
  signIn,
} from "./dashboard-test-edge.js";

function expectDashboardPage(
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  status: number,
) {
  expect(res.statusCode, res.body.slice(0, 500)).toBe(status);
  expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
  const csp = String(res.headers["content-security-policy"]);
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("form-action 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain("script-src");
  expect(res.headers["cache-control"]).toBe("no-store");
  expect(res.body).not.toMatch(/<script/i);
  expect(res.body.match(/<h1[\s>]/g)).toHaveLength(1);
}

describe("dashboard sign-in", () => {
  let t: DashboardTestEdge;
  beforeEach(() => {
    t = createDashboardTestEdge();
  });

  it("when nobody is signed in, then every dashboard page sends the browser to sign-in and shows nothing", async () => {
    const res = await new Browser(t.app).get("/dashboard/payments");
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/dashboard/sign-in");
    expect((await new Browser(t.app).get("/dashboard/")).headers.location).toBe("/dashboard/payments");
  });

  it("when the password is right, then a HttpOnly SameSite session cookie on /dashboard and the payments page", async () => {
    const { email } = await merchantWithUser(t, "owner");
    const browser = new Browser(t.app);
    const form = await browser.get("/dashboard/sign-in");
    expectDashboardPage(form, 200);
    expect(form.body).toContain('autocomplete="current-password"');
    const res = await browser.submit(form, "/dashboard/sign-in", { email, password: PASSWORD });
    expect(res.statusCode).toBe(303);
    const cookie = ([] as string[])
      .concat(res.headers["set-cookie"] ?? [])
      .find((c) => c.startsWith("gw_dashboard="));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/dashboard/);
    expect(cookie).not.toMatch(/Max-Age/);
    const payments = await browser.get("/dashboard/payments");
    expectDashboardPage(payments, 200);
    expect(payments.body).toContain(email);
  });

  it("when the public URL is https, then the session cookie is Secure too", async () => {
    const secure = createDashboardTestEdge({ publicUrl: "https://pay.shop.example" });
    const { email } = await merchantWithUser(secure, "owner");
    const browser = new Browser(secure.app);
    const res = await browser.submit(await browser.get("/dashboard/sign-in"), "/dashboard/sign-in", {
      email,
      password: PASSWORD,
    });
    const cookie = ([] as string[])
      .concat(res.headers["set-cookie"] ?? [])
      .find((c) => c.startsWith("gw_dashboard="));
    expect(cookie).toMatch(/; Secure/);
  });

  it("when the password is wrong or the email unknown, then 401 and the same message for both", async () => {
    const { email } = await merchantWithUser(t, "owner");
    const browser = new Browser(t.app);
    const wrong = await browser.submit(await browser.get("/dashboard/sign-in"), "/dashboard/sign-in", {
      email,
      password: "not the password at all",
    });
    expectDashboardPage(wrong, 401);
    const unknown = await browser.submit(await browser.get("/dashboard/sign-in"), "/dashboard/sign-in", {
      email: "nobody@shop.example",
      password: PASSWORD,
    });
    expectDashboardPage(unknown, 401);
    expect(wrong.body).toContain("The email or password is not right.");
    expect(unknown.body).toContain("The email or password is not right.");
    expect(browser.cookie("gw_dashboard")).toBeUndefined();
  });

  it("when sign-ins keep failing, then throttling engages with a clear message and Retry-After, even for the right password", async () => {
    const { email } = await merchantWithUser(t, "owner");
    const browser = new Browser(t.app);
    let last = await browser.get("/dashboard/sign-in");
    for (let i = 0; i < 12 && last.statusCode !== 429; i++) {
      last = await browser.submit(await browser.get("/dashboard/sign-in"), "/dashboard/sign-in", {
        email,
        password: `wrong password ${i}`,
      });
    }
    expectDashboardPage(last, 429);
    expect(Number(last.headers["retry-after"])).toBeGreaterThan(0);
    expect(last.body).toMatch(/Too many attempts\. Try again in \d+ seconds\./);
    const right = await browser.submit(await browser.get("/dashboard/sign-in"), "/dashboard/sign-in", {
      email,
      password: PASSWORD,
    });
    expect(right.statusCode).toBe(429);
  });

  it("when the sign-in form comes without its CSRF token, then 403 and no session", async () => {
    const { email } = await merchantWithUser(t, "owner");
    const browser = new Browser(t.app);
    await browser.get("/dashboard/sign-in");
    const res = await browser.post("/dashboard/sign-in", { email, password: PASSWORD });
    expectDashboardPage(res, 403);
    expect(browser.cookie("gw_dashboard")).toBeUndefined();
  });

  it("when the user signs out, then the old cookie no longer opens any page", async () => {
    const { email } = await merchantWithUser(t, "owner");
    const browser = await signIn(t, email);
    const stolen = browser.cookieHeader;
    const payments = await browser.get("/dashboard/payments");
    const out = await browser.submit(payments, "/dashboard/sign-out");
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe("/dashboard/sign-in?out=1");
    const replay = await t.app.inject({
      method: "GET",
      url: "/dashboard/payments",
      headers: { cookie: stolen },
    });
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toBe("/dashboard/sign-in?expired=1");
  });

  it("when the password changes, then every other session ends and this browser keeps working", async () => {
    const { email } = await merchantWithUser(t, "developer");
    const browser = await signIn(t, email);
    const other = await signIn(t, email);
    const before = browser.cookieHeader;
    const account = await browser.get("/dashboard/account");
    const changed = await browser.submit(account, "/dashboard/account/password", {
      current_password: PASSWORD,
      new_password: "a brand new passphrase",
    });
    expect(changed.statusCode).toBe(303);
    expect((await browser.get("/dashboard/account?changed=1")).statusCode).toBe(200);
    for (const cookie of [before, other.cookieHeader]) {
      const res = await t.app.inject({ method: "GET", url: "/dashboard/payments", headers: { cookie } });
      expect(res.headers.location).toBe("/dashboard/sign-in?expired=1");
    }
    await signIn(t, email, "a brand new passphrase");
  });

  it("when the current password is wrong, then the password stays and the page says why", async () => {
    const { email } = await merchantWithUser(t, "owner");
    const browser = await signIn(t, email);
    const res = await browser.submit(await browser.get("/dashboard/account"), "/dashboard/account/password", {
      current_password: "this is not it at all",
      new_password: "a brand new passphrase",
    });
    expectDashboardPage(res, 422);
    expect(res.body).toContain("The current password is not right.");
    await signIn(t, email);
  });

  it("when signed out everywhere, then every session of the user ends", async () => {
    const { email } = await merchantWithUser(t, "viewer");
    const browser = await signIn(t, email);
    const other = await signIn(t, email);
    const res = await browser.submit(
      await browser.get("/dashboard/account"),
      "/dashboard/account/sign-out-everywhere",
    );
    expect(res.headers.location).toBe("/dashboard/sign-in?out=1");
    expect((await other.get("/dashboard/payments")).headers.location).toBe("/dashboard/sign-in?expired=1");
  });
});

describe("dashboard invitations", () => {
  let t: DashboardTestEdge;
  beforeEach(() => {
    t = createDashboardTestEdge();
  });

  it("when the invited person opens the link and sets a password, then they can sign in with it", async () => {
    const { merchant } = await t.accounts.createMerchant({ name: "Invited Shop" });
    const { invitationToken } = await t.users.inviteUser({
      merchantId: merchant!.id,
      email: "new-owner@shop.example",
      role: "owner",
      invitedBy: "operator",
    });
    const browser = new Browser(t.app);
    const page = await browser.get(`/dashboard/invitations/${invitationToken}`);
    expectDashboardPage(page, 200);
    expect(page.body).toContain("new-owner@shop.example");
    const weak = await browser.submit(page, `/dashboard/invitations/${invitationToken}`, {
      password: "short",
    });
    expectDashboardPage(weak, 422);
    const done = await browser.submit(weak, `/dashboard/invitations/${invitationToken}`, {
      password: PASSWORD,
    });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe("/dashboard/sign-in?invited=1");
    await signIn(t, "new-owner@shop.example");
    expectDashboardPage(await browser.get(`/dashboard/invitations/${invitationToken}`), 404);
  });

  it("when the link is unknown or malformed, then a 404 page", async () => {
    const browser = new Browser(t.app);
    expectDashboardPage(await browser.get(`/dashboard/invitations/inv_${"a".repeat(43)}`), 404);
    expectDashboardPage(await browser.get("/dashboard/invitations/%3Cscript%3E"), 404);
  });
});

describe("dashboard pages in every language", () => {
  it("when French or Arabic is chosen, then the page is in that language, Arabic right-to-left", async () => {
    const t = createDashboardTestEdge();
    const browser = new Browser(t.app);
    const fr = await browser.get("/dashboard/sign-in?lang=fr");
    expect(fr.body).toContain('<html lang="fr" dir="ltr">');
    expect(fr.body).toContain("Connexion");
    const ar = await browser.get("/dashboard/sign-in?lang=ar");
    expect(ar.body).toContain('<html lang="ar" dir="rtl">');
    expect(ar.body).toContain("تسجيل الدخول");
    // Remembered in a cookie for the next page.
    expect((await browser.get("/dashboard/sign-in")).body).toContain('<html lang="ar" dir="rtl">');
  });
});
