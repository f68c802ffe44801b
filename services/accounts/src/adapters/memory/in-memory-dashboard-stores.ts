import { copyRecord } from "@gateway/platform";
import type {
  DashboardSessionRepository,
  DashboardStores,
  DashboardUserRepository,
  InvitationRepository,
  SignInFailureCounter,
} from "../../app/dashboard-ports.js";
import type { InsertOutcome } from "../../app/ports.js";
import type { DashboardSession, Invitation } from "../../domain/dashboard/dashboard-credentials.js";
import type { DashboardUser } from "../../domain/dashboard/dashboard-user.js";

/** Users in Maps, with the Mongo indexes' uniqueness rules (id, email). */
export class InMemoryDashboardUserRepository implements DashboardUserRepository {
  private readonly byId = new Map<string, DashboardUser>();
  private readonly idByEmail = new Map<string, string>();

  async insert(user: DashboardUser): Promise<InsertOutcome> {
    if (this.byId.has(user.id) || this.idByEmail.has(user.email)) return "already_exists";
    this.byId.set(user.id, copyRecord(user));
    this.idByEmail.set(user.email, user.id);
    return "inserted";
  }

  async findById(id: string): Promise<DashboardUser | undefined> {
    const user = this.byId.get(id);
    return user && copyRecord(user);
  }

  async findByEmail(email: string): Promise<DashboardUser | undefined> {
    const id = this.idByEmail.get(email);
    return id === undefined ? undefined : this.findById(id);
  }

  async listByMerchant(merchantId: string): Promise<DashboardUser[]> {
    return [...this.byId.values()]
      .filter((u) => u.merchantId === merchantId)
      .sort(
        (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      )
      .map((u) => copyRecord(u));
  }

  async changePassword(
    id: string,
    passwordHash: string,
    at: Date,
    expectedGeneration: number,
  ): Promise<DashboardUser | undefined> {
    const user = this.byId.get(id);
    if (!user || user.sessionGeneration !== expectedGeneration) return undefined;
    Object.assign(user, {
      passwordHash,
      passwordChangedAt: new Date(at.getTime()),
      sessionGeneration: expectedGeneration + 1,
    });
    return copyRecord(user);
  }

  async raiseSessionGeneration(id: string): Promise<DashboardUser | undefined> {
    const user = this.byId.get(id);
    if (!user) return undefined;
    user.sessionGeneration += 1;
    return copyRecord(user);
  }
}

export class InMemoryInvitationRepository implements InvitationRepository {
  private readonly byId = new Map<string, Invitation>();

  async insert(invitation: Invitation): Promise<InsertOutcome> {
    const taken =
      this.byId.has(invitation.id) ||
      [...this.byId.values()].some((i) => i.tokenHash === invitation.tokenHash);
    if (taken) return "already_exists";
    this.byId.set(invitation.id, copyRecord(invitation));
    return "inserted";
  }

  async findByTokenHash(tokenHash: string): Promise<Invitation | undefined> {
    const found = [...this.byId.values()].find((i) => i.tokenHash === tokenHash);
    return found && copyRecord(found);
  }

  async markAccepted(id: string, at: Date): Promise<boolean> {
    const invitation = this.byId.get(id);
    if (!invitation || invitation.acceptedAt) return false;
    invitation.acceptedAt = new Date(at.getTime());
    return true;
  }
}

export class InMemoryDashboardSessionRepository implements DashboardSessionRepository {
  private readonly byHash = new Map<string, DashboardSession>();

  async insert(session: DashboardSession): Promise<void> {
    // Sign-ins are rare: dropping the sessions that have run out here keeps memory bounded.
    for (const [hash, held] of this.byHash)
      if (held.expiresAt.getTime() <= session.createdAt.getTime()) this.byHash.delete(hash);
    this.byHash.set(session.tokenHash, copyRecord(session));
  }

  async find(tokenHash: string): Promise<DashboardSession | undefined> {
    const session = this.byHash.get(tokenHash);
    return session && copyRecord(session);
  }

  async delete(tokenHash: string): Promise<void> {
    this.byHash.delete(tokenHash);
  }

  async deleteForUser(userId: string): Promise<void> {
    for (const [hash, session] of this.byHash) if (session.userId === userId) this.byHash.delete(hash);
  }
}

export class InMemorySignInFailureCounter implements SignInFailureCounter {
  /** key -> the current window and its count; an older window is forgotten when a newer one starts. */
  private readonly windows = new Map<string, { start: number; count: number }>();

  async add(key: string, windowStart: Date): Promise<number> {
    const current = this.windows.get(key);
    const next = current && current.start === windowStart.getTime() ? current.count + 1 : 1;
    this.windows.set(key, { start: windowStart.getTime(), count: next });
    return next;
  }

  async count(key: string, windowStart: Date): Promise<number> {
    const current = this.windows.get(key);
    return current && current.start === windowStart.getTime() ? current.count : 0;
  }

  async clear(key: string): Promise<void> {
    this.windows.delete(key);
  }
}

export function createInMemoryDashboardStores(): DashboardStores {
  return {
    users: new InMemoryDashboardUserRepository(),
    invitations: new InMemoryInvitationRepository(),
    sessions: new InMemoryDashboardSessionRepository(),
    signInFailures: new InMemorySignInFailureCounter(),
  };
}
