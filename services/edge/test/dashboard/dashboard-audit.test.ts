import { create } from "@bufbuild/protobuf";
import { AccountScopeSchema } from "@gateway/proto";
import { describe, expect, it } from "vitest";
import {
  addUser,
  createDashboardTestEdge,
  hiddenFields,
  merchantWithUser,
  signIn,
} from "./dashboard-test-edge.js";

describe("dashboard audit log", () => {
  it("records every action with who, what, on what and from where; owners read it, others get 403; another merchant's stays out", async () => {
    const t = createDashboardTestEdge();
    const { merchantId, email } = await merchantWithUser(t, "owner", "boss@shop.example");
    const developerEmail = await addUser(t, merchantId, "developer", "dev@shop.example");
    // The test clock stands still unless moved: a second between actions orders the log.
    const owner = await signIn(t, email);
    t.clock.advance(1000);
    const developer = await signIn(t, developerEmail);
    t.clock.advance(1000);
    const { session } = await t.sessions.createSession({
      scope: create(AccountScopeSchema, { merchantId, livemode: false }),
      merchantReference: "audited",
      amount: "5.000",
    } as never);
    const confirm = await developer.get(`/dashboard/payments/${session!.id}/cancel`);
    await developer.submit(confirm, `/dashboard/payments/${session!.id}/cancel`);
    t.clock.advance(1000);
    await developer.submit(
      await developer.get("/dashboard/settings/currencies"),
      "/dashboard/settings/currencies",
      {
        currency: "EUR",
        rate: "3.3",
      },
    );
    t.clock.advance(1000);
    await developer.submit(
      await developer.get("/dashboard/developers/api-keys"),
      "/dashboard/developers/api-keys",
    );
    const stranger = await merchantWithUser(t, "owner", "stranger@elsewhere.example");
    await signIn(t, stranger.email);

    const log = await owner.get("/dashboard/audit-log");
    expect(log.statusCode).toBe(200);
    const actions = [...log.body.matchAll(/<td><code>([a-z_.]+)<\/code><\/td>/g)].map((m) => m[1]);
    expect(actions).toEqual([
      "api_key.created",
      "exchange_rate.set",
      "session.canceled",
      "user.signed_in",
      "user.signed_in",
    ]);
    expect(log.body).toContain("dev@shop.example");
    expect(log.body).toContain(`<code>${session!.id}</code>`);
    expect(log.body).not.toContain("stranger@elsewhere.example");

    const refused = await developer.get("/dashboard/audit-log");
    expect(refused.statusCode).toBe(403);
    expect((await developer.get("/dashboard/payments")).body).not.toContain("/dashboard/audit-log");
    const csrf = hiddenFields(log.body, "/dashboard/sign-out").csrf!;
    await owner.post("/dashboard/sign-out", { csrf });
  });
});

describe("dashboard users", () => {
  it("an owner invites a teammate whose one-time link works; a developer may not invite", async () => {
    const t = createDashboardTestEdge();
    const { merchantId, email } = await merchantWithUser(t, "owner");
    const owner = await signIn(t, email);
    const page = await owner.get("/dashboard/users");
    const bad = await owner.submit(page, "/dashboard/users/invitations", {
      email: "not-an-email",
      role: "viewer",
    });
    expect(bad.statusCode).toBe(422);
    const invited = await owner.submit(page, "/dashboard/users/invitations", {
      email: "new.dev@shop.example",
      role: "developer",
    });
    expect(invited.statusCode).toBe(200);
    const link = /<code class="secret" data-secret>([^<]+)<\/code>/.exec(invited.body)![1]!;
    expect(link).toMatch(/^http:\/\/localhost:8080\/dashboard\/invitations\/inv_[0-9A-Za-z]{43}$/);
    const { invitation } = await t.users.getInvitation({ invitationToken: link.split("/").at(-1)! });
    expect(invitation).toMatchObject({ merchantId, email: "new.dev@shop.example", role: "developer" });

    const developer = await signIn(t, await addUser(t, merchantId, "developer"));
    const developerPage = await developer.get("/dashboard/users");
    expect(developerPage.body).not.toContain("/dashboard/users/invitations");
    const csrf = hiddenFields(developerPage.body, "/dashboard/sign-out").csrf!;
    const refused = await developer.post("/dashboard/users/invitations", {
      csrf,
      email: "x@shop.example",
      role: "owner",
    });
    expect(refused.statusCode).toBe(403);
  });
});
