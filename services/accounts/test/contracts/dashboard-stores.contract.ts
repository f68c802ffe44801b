import { randomBase62 } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import type { DashboardStores } from "../../src/app/dashboard-ports.js";
import type { DashboardSession, Invitation } from "../../src/domain/dashboard/dashboard-credentials.js";
import type { DashboardUser } from "../../src/domain/dashboard/dashboard-user.js";

// One contract for the dashboard's stores, run against every adapter. Each test makes its own
// ids and emails, so adapters that share a database across tests stay independent.

const unique = () => randomBase62(10).toLowerCase();

function user(overrides: Partial<DashboardUser> = {}): DashboardUser {
  const id = unique();
  return {
    id: `usr_${id}`,
    merchantId: `mer_${id}`,
    email: `${id}@shop.example`,
    role: "owner",
    passwordHash: "scrypt$1$1$1$c2FsdA$a2V5",
    sessionGeneration: 0,
    createdAt: new Date("2026-11-01T10:00:00.000Z"),
    passwordChangedAt: new Date("2026-11-01T10:00:00.000Z"),
    ...overrides,
  };
}

function invitation(overrides: Partial<Invitation> = {}): Invitation {
  const id = unique();
  return {
    id: `inv_${id}`,
    merchantId: `mer_${id}`,
    email: `${id}@shop.example`,
    role: "viewer",
    tokenHash: `hash-${id}`,
    invitedBy: "operator",
    createdAt: new Date("2026-11-01T10:00:00.000Z"),
    expiresAt: new Date("2026-11-08T10:00:00.000Z"),
    ...overrides,
  };
}

function session(userId: string, overrides: Partial<DashboardSession> = {}): DashboardSession {
  return {
    tokenHash: `session-${unique()}`,
    userId,
    merchantId: "mer_x",
    generation: 0,
    createdAt: new Date("2026-11-01T10:00:00.000Z"),
    expiresAt: new Date("2026-11-01T22:00:00.000Z"),
    ...overrides,
  };
}

export function describeDashboardStoresContract(
  adapter: string,
  makeStores: () => Promise<DashboardStores>,
): void {
  describe(`dashboard stores contract (${adapter})`, () => {
    it("when a user is inserted, then it is found by id and by email, and its id or email cannot be taken again", async () => {
      const { users } = await makeStores();
      const alice = user();
      expect(await users.insert(alice)).toBe("inserted");
      expect(await users.findById(alice.id)).toEqual(alice);
      expect(await users.findByEmail(alice.email)).toEqual(alice);
      expect(await users.insert(user({ email: alice.email }))).toBe("already_exists");
      expect(await users.insert(user({ id: alice.id }))).toBe("already_exists");
      expect(await users.findByEmail(`nobody-${unique()}@shop.example`)).toBeUndefined();
    });

    it("when a merchant's users are listed, then they come oldest first and no other merchant's appear", async () => {
      const { users } = await makeStores();
      const merchantId = `mer_${unique()}`;
      const later = user({ merchantId, createdAt: new Date("2026-11-02T00:00:00.000Z") });
      const earlier = user({ merchantId, createdAt: new Date("2026-11-01T00:00:00.000Z") });
      await users.insert(later);
      await users.insert(earlier);
      await users.insert(user());
      expect((await users.listByMerchant(merchantId)).map((u) => u.id)).toEqual([earlier.id, later.id]);
    });

    it("when the password changes under the expected generation, then the hash is replaced and the generation rises", async () => {
      const { users } = await makeStores();
      const alice = user();
      await users.insert(alice);
      const at = new Date("2026-11-03T00:00:00.000Z");
      const changed = await users.changePassword(alice.id, "scrypt$new", at, 0);
      expect(changed).toMatchObject({
        passwordHash: "scrypt$new",
        sessionGeneration: 1,
        passwordChangedAt: at,
      });
      expect(await users.changePassword(alice.id, "scrypt$stale", at, 0)).toBeUndefined();
      expect((await users.findById(alice.id))?.passwordHash).toBe("scrypt$new");
    });

    it("when the session generation is raised, then it counts up by one each time", async () => {
      const { users } = await makeStores();
      const alice = user();
      await users.insert(alice);
      await users.raiseSessionGeneration(alice.id);
      expect((await users.raiseSessionGeneration(alice.id))?.sessionGeneration).toBe(2);
      expect(await users.raiseSessionGeneration(`usr_${unique()}`)).toBeUndefined();
    });

    it("when an invitation is accepted twice, even at once, then exactly one acceptance wins", async () => {
      const { invitations } = await makeStores();
      const invite = invitation();
      expect(await invitations.insert(invite)).toBe("inserted");
      expect(await invitations.insert(invitation({ tokenHash: invite.tokenHash }))).toBe("already_exists");
      expect(await invitations.findByTokenHash(invite.tokenHash)).toEqual(invite);
      const at = new Date("2026-11-02T00:00:00.000Z");
      const outcomes = await Promise.all([
        invitations.markAccepted(invite.id, at),
        invitations.markAccepted(invite.id, at),
      ]);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect((await invitations.findByTokenHash(invite.tokenHash))?.acceptedAt).toEqual(at);
    });

    it("when sessions are deleted one by one or for their user, then only those go", async () => {
      const { sessions } = await makeStores();
      const mine = [session("usr_a"), session("usr_a")];
      const theirs = session("usr_b");
      for (const s of [...mine, theirs]) await sessions.insert(s);
      expect(await sessions.find(mine[0]!.tokenHash)).toEqual(mine[0]);
      await sessions.delete(mine[0]!.tokenHash);
      expect(await sessions.find(mine[0]!.tokenHash)).toBeUndefined();
      await sessions.deleteForUser("usr_a");
      expect(await sessions.find(mine[1]!.tokenHash)).toBeUndefined();
      expect(await sessions.find(theirs.tokenHash)).toEqual(theirs);
    });

    it("when failures are added in a window, then they count there, a new window starts at zero, and clear forgets them", async () => {
      const { signInFailures } = await makeStores();
      const key = `email:${unique()}@shop.example`;
      const first = new Date("2026-11-01T10:00:00.000Z");
      const next = new Date("2026-11-01T10:15:00.000Z");
      expect(await signInFailures.add(key, first)).toBe(1);
      const racing = await Promise.all([signInFailures.add(key, first), signInFailures.add(key, first)]);
      for (const count of racing) expect(count).toBeGreaterThanOrEqual(2);
      expect(await signInFailures.count(key, first)).toBe(3);
      expect(await signInFailures.count(key, next)).toBe(0);
      expect(await signInFailures.add(key, next)).toBe(1);
      await signInFailures.clear(key);
      expect(await signInFailures.count(key, next)).toBe(0);
    });
  });
}
