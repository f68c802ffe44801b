import { GatewayError, ManualClock } from "@gateway/platform";
import { beforeEach, describe, expect, it } from "vitest";
import { createInMemoryDashboardStores } from "../src/adapters/memory/in-memory-dashboard-stores.js";
import type { DashboardDeps } from "../src/app/dashboard-ports.js";
import {
  acceptInvitation,
  authenticateDashboardSession,
  changePassword,
  inviteDashboardUser,
  listDashboardUsers,
  openInvitation,
  signIn,
  signOut,
  signOutEverywhere,
} from "../src/app/dashboard-users.js";
import {
  DASHBOARD_SESSION_LIFETIME_MS,
  INVITATION_LIFETIME_MS,
  SIGN_IN_THROTTLE,
} from "../src/domain/dashboard/dashboard-credentials.js";
import { hashPassword, verifyPassword } from "../src/domain/dashboard/password-hash.js";

const MERCHANT = "mer_shop";
const PASSWORD = "correct horse battery staple";
const ADDRESS = "203.0.113.7";

let clock: ManualClock;
let deps: DashboardDeps;

beforeEach(() => {
  clock = new ManualClock(new Date("2026-11-23T10:00:00.000Z"));
  deps = { stores: createInMemoryDashboardStores(), clock, merchantExists: async (id) => id === MERCHANT };
});

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayError);
  return (err as GatewayError).reason;
}

/** The owner's sign-in with the right password from the usual address. */
function ownerSignsIn() {
  return signIn(deps, { email: "owner@shop.example", password: PASSWORD, clientAddress: ADDRESS });
}

async function owner(email = "Owner@Shop.Example") {
  const { token } = await inviteDashboardUser(deps, {
    merchantId: MERCHANT,
    email,
    role: "owner",
    invitedBy: "operator",
  });
  return acceptInvitation(deps, { token, password: PASSWORD });
}

describe("dashboard passwords", () => {
  it("when a password is hashed, then only that password verifies, and the stored text holds scrypt parameters, not the password", async () => {
    const hash = await hashPassword(PASSWORD);
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(hash).not.toContain(PASSWORD);
    expect(await verifyPassword(PASSWORD, hash)).toBe(true);
    expect(await verifyPassword(`${PASSWORD}!`, hash)).toBe(false);
    expect(await verifyPassword(PASSWORD, "not-a-hash")).toBe(false);
  });
});

describe("invitations", () => {
  it("when the operator invites an owner who accepts, then the user exists with a lowercased email and no password in sight", async () => {
    const user = await owner();
    expect(user).toMatchObject({
      merchantId: MERCHANT,
      email: "owner@shop.example",
      role: "owner",
      sessionGeneration: 0,
    });
    expect(user).not.toHaveProperty("passwordHash");
    expect((await listDashboardUsers(deps, MERCHANT)).map((u) => u.email)).toEqual(["owner@shop.example"]);
  });

  it("when a link is used a second time, then it is not valid any more", async () => {
    const { token } = await inviteDashboardUser(deps, {
      merchantId: MERCHANT,
      email: "a@shop.example",
      role: "viewer",
      invitedBy: "operator",
    });
    await acceptInvitation(deps, { token, password: PASSWORD });
    expect(await reasonOf(acceptInvitation(deps, { token, password: PASSWORD }))).toBe("NOT_FOUND");
  });

  it("when a link has expired, is unknown or malformed, then the answer is the same NOT_FOUND", async () => {
    const { token } = await inviteDashboardUser(deps, {
      merchantId: MERCHANT,
      email: "b@shop.example",
      role: "viewer",
      invitedBy: "operator",
    });
    clock.advance(INVITATION_LIFETIME_MS);
    expect(await reasonOf(openInvitation(deps, token))).toBe("NOT_FOUND");
    expect(await reasonOf(openInvitation(deps, `inv_${"A".repeat(43)}`))).toBe("NOT_FOUND");
    expect(await reasonOf(openInvitation(deps, "inv_short"))).toBe("NOT_FOUND");
  });

  it("when the invitation is bad (email, role, merchant, an email already in use), then nothing is issued", async () => {
    expect(
      await reasonOf(
        inviteDashboardUser(deps, {
          merchantId: MERCHANT,
          email: "not an email",
          role: "owner",
          invitedBy: "operator",
        }),
      ),
    ).toBe("VALIDATION_ERROR");
    expect(
      await reasonOf(
        inviteDashboardUser(deps, {
          merchantId: MERCHANT,
          email: "c@shop.example",
          role: "root",
          invitedBy: "operator",
        }),
      ),
    ).toBe("VALIDATION_ERROR");
    expect(
      await reasonOf(
        inviteDashboardUser(deps, {
          merchantId: "mer_other",
          email: "c@shop.example",
          role: "owner",
          invitedBy: "operator",
        }),
      ),
    ).toBe("NOT_FOUND");
    await owner("taken@shop.example");
    expect(
      await reasonOf(
        inviteDashboardUser(deps, {
          merchantId: MERCHANT,
          email: "TAKEN@shop.example",
          role: "viewer",
          invitedBy: "operator",
        }),
      ),
    ).toBe("CONFLICT");
  });

  it("when the chosen password is too short or is the email, then the link stays usable", async () => {
    const { token } = await inviteDashboardUser(deps, {
      merchantId: MERCHANT,
      email: "long-address@shop.example",
      role: "viewer",
      invitedBy: "operator",
    });
    expect(await reasonOf(acceptInvitation(deps, { token, password: "short" }))).toBe("VALIDATION_ERROR");
    expect(await reasonOf(acceptInvitation(deps, { token, password: "Long-Address@shop.example" }))).toBe(
      "VALIDATION_ERROR",
    );
    await expect(acceptInvitation(deps, { token, password: PASSWORD })).resolves.toMatchObject({
      role: "viewer",
    });
  });
});

describe("sign-in and sessions", () => {
  it("when the right password is given, then a session authenticates until it expires", async () => {
    await owner();
    const signedIn = await signIn(deps, {
      email: " OWNER@shop.example ",
      password: PASSWORD,
      clientAddress: ADDRESS,
    });
    expect(signedIn.token).toMatch(/^dss_[0-9A-Za-z]{43}$/);
    expect(signedIn.session.tokenHash).not.toBe(signedIn.token);
    expect((await authenticateDashboardSession(deps, signedIn.token)).user.email).toBe("owner@shop.example");
    clock.advance(DASHBOARD_SESSION_LIFETIME_MS);
    expect(await reasonOf(authenticateDashboardSession(deps, signedIn.token))).toBe("UNAUTHORIZED");
  });

  it("when the password is wrong or the email unknown, then the answer is the same", async () => {
    await owner();
    const wrong = await reasonOf(
      signIn(deps, { email: "owner@shop.example", password: "wrong password!", clientAddress: ADDRESS }),
    );
    const unknown = await reasonOf(
      signIn(deps, { email: "nobody@shop.example", password: PASSWORD, clientAddress: ADDRESS }),
    );
    expect([wrong, unknown]).toEqual(["UNAUTHORIZED", "UNAUTHORIZED"]);
  });

  it("when an email collects too many failures, then even the right password is refused until the window ends", async () => {
    await owner();
    for (let i = 0; i < SIGN_IN_THROTTLE.maxFailuresPerEmail; i++) {
      await reasonOf(
        signIn(deps, {
          email: "owner@shop.example",
          password: `wrong ${i} password`,
          clientAddress: `198.51.100.${i}`,
        }),
      );
    }
    const refused = await ownerSignsIn().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).reason).toBe("RATE_LIMIT_EXCEEDED");
    expect((refused as GatewayError).message).toMatch(/Too many failed sign-ins/);
    expect(Number((refused as GatewayError).metadata.retry_after_seconds)).toBeGreaterThan(0);
    clock.advance(SIGN_IN_THROTTLE.windowMs);
    await expect(ownerSignsIn()).resolves.toBeDefined();
  });

  it("when one address sprays many emails, then it is throttled as an address", async () => {
    for (let i = 0; i < SIGN_IN_THROTTLE.maxFailuresPerAddress; i++) {
      await reasonOf(
        signIn(deps, { email: `guess${i}@shop.example`, password: PASSWORD, clientAddress: ADDRESS }),
      );
    }
    await owner();
    expect(await reasonOf(ownerSignsIn())).toBe("RATE_LIMIT_EXCEEDED");
    await expect(
      signIn(deps, { email: "owner@shop.example", password: PASSWORD, clientAddress: "192.0.2.1" }),
    ).resolves.toBeDefined();
  });

  it("when the user signs out, then that session stops working and the others keep working", async () => {
    await owner();
    const here = await ownerSignsIn();
    const there = await ownerSignsIn();
    await signOut(deps, here.token);
    expect(await reasonOf(authenticateDashboardSession(deps, here.token))).toBe("UNAUTHORIZED");
    await expect(authenticateDashboardSession(deps, there.token)).resolves.toBeDefined();
  });

  it("when the user signs out everywhere, then every session of that user stops working", async () => {
    await owner();
    const here = await ownerSignsIn();
    const there = await ownerSignsIn();
    await signOutEverywhere(deps, here.token);
    expect(await reasonOf(authenticateDashboardSession(deps, here.token))).toBe("UNAUTHORIZED");
    expect(await reasonOf(authenticateDashboardSession(deps, there.token))).toBe("UNAUTHORIZED");
  });

  it("when the password changes, then every old session ends, the new password works and the old one does not", async () => {
    await owner();
    const old = await ownerSignsIn();
    const other = await ownerSignsIn();
    const fresh = await changePassword(deps, {
      token: old.token,
      currentPassword: PASSWORD,
      newPassword: "a new and longer passphrase",
      clientAddress: ADDRESS,
    });
    expect(await reasonOf(authenticateDashboardSession(deps, old.token))).toBe("UNAUTHORIZED");
    expect(await reasonOf(authenticateDashboardSession(deps, other.token))).toBe("UNAUTHORIZED");
    await expect(authenticateDashboardSession(deps, fresh.token)).resolves.toBeDefined();
    expect(await reasonOf(ownerSignsIn())).toBe("UNAUTHORIZED");
    await expect(
      signIn(deps, {
        email: "owner@shop.example",
        password: "a new and longer passphrase",
        clientAddress: ADDRESS,
      }),
    ).resolves.toBeDefined();
  });

  it("when the current password given to a change is wrong, then nothing changes and the session keeps working", async () => {
    await owner();
    const session = await ownerSignsIn();
    expect(
      await reasonOf(
        changePassword(deps, {
          token: session.token,
          currentPassword: "not the password",
          newPassword: "another long passphrase",
          clientAddress: ADDRESS,
        }),
      ),
    ).toBe("VALIDATION_ERROR");
    await expect(authenticateDashboardSession(deps, session.token)).resolves.toBeDefined();
  });

  it("when a session token is malformed or unknown, then it does not authenticate", async () => {
    expect(await reasonOf(authenticateDashboardSession(deps, "dss_nope"))).toBe("UNAUTHORIZED");
    expect(await reasonOf(authenticateDashboardSession(deps, `dss_${"a".repeat(43)}`))).toBe("UNAUTHORIZED");
  });
});
