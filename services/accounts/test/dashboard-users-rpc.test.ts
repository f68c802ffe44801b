import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type Client, Code, ConnectError, createClient } from "@connectrpc/connect";
import { fromConnectError, ManualClock } from "@gateway/platform";
import { AccountsService, DashboardUsersService } from "@gateway/proto";
import { beforeEach, describe, expect, it } from "vitest";
import { SIGN_IN_THROTTLE } from "../src/domain/dashboard/dashboard-credentials.js";
import { inProcessAccounts } from "./support/in-process-accounts.js";

const PASSWORD = "correct horse battery staple";

async function connectErrorOf(promise: Promise<unknown>): Promise<ConnectError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConnectError);
  return err as ConnectError;
}

describe("DashboardUsersService over Connect", () => {
  let clock: ManualClock;
  let accounts: Client<typeof AccountsService>;
  let dashboard: Client<typeof DashboardUsersService>;
  let logs: () => string;

  beforeEach(() => {
    clock = new ManualClock(Date.UTC(2026, 10, 23, 10));
    const inProcess = inProcessAccounts(clock);
    logs = inProcess.logs;
    const { transport } = inProcess;
    accounts = createClient(AccountsService, transport);
    dashboard = createClient(DashboardUsersService, transport);
  });

  async function invitedOwner(): Promise<{ merchantId: string; token: string }> {
    const { merchant } = await accounts.createMerchant({ name: "Shop" });
    const invited = await dashboard.inviteUser({
      merchantId: merchant!.id,
      email: "Owner@Shop.Example",
      role: "owner",
      invitedBy: "operator",
    });
    return { merchantId: merchant!.id, token: invited.invitationToken };
  }

  it("when an owner is invited, accepts and signs in, then the session authenticates as that owner", async () => {
    const { merchantId, token } = await invitedOwner();
    expect(token).toMatch(/^inv_/);
    expect((await dashboard.getInvitation({ invitationToken: token })).invitation).toMatchObject({
      email: "owner@shop.example",
      role: "owner",
      merchantId,
    });
    await dashboard.acceptInvitation({ invitationToken: token, password: PASSWORD });
    const signedIn = await dashboard.signIn({
      email: "owner@shop.example",
      password: PASSWORD,
      clientAddress: "203.0.113.9",
    });
    expect(timestampDate(signedIn.session!.expiresAt!).getTime()).toBeGreaterThan(clock.now().getTime());
    const authenticated = await dashboard.authenticateSession({ sessionToken: signedIn.sessionToken });
    expect(authenticated.session?.user).toMatchObject({
      email: "owner@shop.example",
      role: "owner",
      merchantId,
    });
    expect((await dashboard.listUsers({ merchantId })).users.map((u) => u.email)).toEqual([
      "owner@shop.example",
    ]);
  });

  it("when the link is reused, the password is wrong, or sign-in is throttled, then each has its own code and reason", async () => {
    const { token } = await invitedOwner();
    await dashboard.acceptInvitation({ invitationToken: token, password: PASSWORD });
    const reused = await connectErrorOf(
      dashboard.acceptInvitation({ invitationToken: token, password: PASSWORD }),
    );
    expect(reused.code).toBe(Code.NotFound);
    const wrong = await connectErrorOf(
      dashboard.signIn({ email: "owner@shop.example", password: "not the password", clientAddress: "a" }),
    );
    expect([wrong.code, fromConnectError(wrong).reason]).toEqual([Code.Unauthenticated, "UNAUTHORIZED"]);
    for (let i = 1; i < SIGN_IN_THROTTLE.maxFailuresPerEmail; i++) {
      await connectErrorOf(
        dashboard.signIn({ email: "owner@shop.example", password: "not the password", clientAddress: "a" }),
      );
    }
    const throttled = await connectErrorOf(
      dashboard.signIn({ email: "owner@shop.example", password: PASSWORD, clientAddress: "a" }),
    );
    expect([throttled.code, fromConnectError(throttled).reason]).toEqual([
      Code.ResourceExhausted,
      "RATE_LIMIT_EXCEEDED",
    ]);
    expect(Number(fromConnectError(throttled).metadata.retry_after_seconds)).toBeGreaterThan(0);
  });

  it("when the password changes, then the old session token is refused and no log line carries a password or token", async () => {
    const { token } = await invitedOwner();
    await dashboard.acceptInvitation({ invitationToken: token, password: PASSWORD });
    const first = await dashboard.signIn({
      email: "owner@shop.example",
      password: PASSWORD,
      clientAddress: "b",
    });
    const changed = await dashboard.changePassword({
      sessionToken: first.sessionToken,
      currentPassword: PASSWORD,
      newPassword: "a brand new passphrase",
      clientAddress: "b",
    });
    expect(
      (await connectErrorOf(dashboard.authenticateSession({ sessionToken: first.sessionToken }))).code,
    ).toBe(Code.Unauthenticated);
    await dashboard.authenticateSession({ sessionToken: changed.sessionToken });
    await dashboard.signOut({ sessionToken: changed.sessionToken });
    expect(
      (await connectErrorOf(dashboard.authenticateSession({ sessionToken: changed.sessionToken }))).code,
    ).toBe(Code.Unauthenticated);
    for (const secret of [
      PASSWORD,
      "a brand new passphrase",
      token,
      first.sessionToken,
      changed.sessionToken,
    ]) {
      expect(logs()).not.toContain(secret);
    }
  });
});
