import type { Clock } from "@gateway/platform";
import type { DashboardSession, Invitation } from "../domain/dashboard/dashboard-credentials.js";
import type { DashboardUser } from "../domain/dashboard/dashboard-user.js";
import type { InsertOutcome } from "./ports.js";

export interface DashboardUserRepository {
  /** Stores a new user; "already_exists" when its id or email is taken (nothing changes then). */
  insert(user: DashboardUser): Promise<InsertOutcome>;
  findById(id: string): Promise<DashboardUser | undefined>;
  findByEmail(email: string): Promise<DashboardUser | undefined>;
  /** The merchant's users, oldest first (ties by id). */
  listByMerchant(merchantId: string): Promise<DashboardUser[]>;
  /**
   * Sets a new password hash and raises the session generation by one, only while the stored
   * generation is still `expectedGeneration` (a concurrent change or sign-out wins). The user
   * afterwards, or undefined when nothing matched.
   */
  changePassword(
    id: string,
    passwordHash: string,
    at: Date,
    expectedGeneration: number,
  ): Promise<DashboardUser | undefined>;
  /** Raises the session generation by one; the user afterwards, undefined when unknown. */
  raiseSessionGeneration(id: string): Promise<DashboardUser | undefined>;
}

export interface InvitationRepository {
  /** Stores a new invitation; "already_exists" when its id or token hash is taken. */
  insert(invitation: Invitation): Promise<InsertOutcome>;
  findByTokenHash(tokenHash: string): Promise<Invitation | undefined>;
  /** Marks it accepted at `at` unless it already was: true only for the call that accepted it. */
  markAccepted(id: string, at: Date): Promise<boolean>;
}

export interface DashboardSessionRepository {
  insert(session: DashboardSession): Promise<void>;
  find(tokenHash: string): Promise<DashboardSession | undefined>;
  delete(tokenHash: string): Promise<void>;
  /** Ends every session of the user (sign out everywhere, password change). */
  deleteForUser(userId: string): Promise<void>;
}

/** Failed sign-ins counted per key (an email or a client address) in fixed time windows. */
export interface SignInFailureCounter {
  /** Adds one failure to the window that starts at `windowStart`; the window's count afterwards. */
  add(key: string, windowStart: Date): Promise<number>;
  /** The failures in the window that starts at `windowStart`. */
  count(key: string, windowStart: Date): Promise<number>;
  /** Forgets the key's failures (after a successful sign-in). */
  clear(key: string): Promise<void>;
}

export interface DashboardStores {
  users: DashboardUserRepository;
  invitations: InvitationRepository;
  sessions: DashboardSessionRepository;
  signInFailures: SignInFailureCounter;
}

export interface DashboardDeps {
  stores: DashboardStores;
  clock: Clock;
  /** Whether a merchant exists (users and invitations belong to one). */
  merchantExists(merchantId: string): Promise<boolean>;
}
