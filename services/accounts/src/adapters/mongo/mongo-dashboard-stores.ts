import { randomUUID } from "node:crypto";
import { isDuplicateKeyError } from "@gateway/platform";
import type { Collection, Db } from "mongodb";
import type {
  DashboardSessionRepository,
  DashboardStores,
  DashboardUserRepository,
  InvitationRepository,
  SignInFailureCounter,
} from "../../app/dashboard-ports.js";
import type { InsertOutcome } from "../../app/ports.js";
import type { DashboardSession, Invitation } from "../../domain/dashboard/dashboard-credentials.js";
import type { DashboardRole, DashboardUser } from "../../domain/dashboard/dashboard-user.js";
import { runMongo } from "./mongo-errors.js";

// Collections of the dashboard's users, invitations, sessions and sign-in failure counts. Only
// single-document atomic updates and unique indexes, as everywhere (docs/architecture.md).

interface UserDocument {
  _id: string;
  merchantId: string;
  email: string;
  role: DashboardRole;
  passwordHash: string;
  sessionGeneration: number;
  createdAt: Date;
  passwordChangedAt: Date;
}

type InvitationDocument = Omit<Invitation, "id"> & { _id: string };
type SessionDocument = Omit<DashboardSession, "tokenHash"> & { _id: string };

interface FailureDocument {
  _id: string;
  key: string;
  /** The start of the throttle window the failure fell in. */
  windowStart: Date;
}

interface AcceptanceDocument {
  /** The invitation's id: the unique insert that decides which acceptance wins. */
  _id: string;
  at: Date;
}

export const DASHBOARD_COLLECTIONS = {
  users: "dashboard_users",
  invitations: "dashboard_invitations",
  sessions: "dashboard_sessions",
  invitationAcceptances: "dashboard_invitation_acceptances",
  signInFailures: "dashboard_sign_in_failures",
} as const;

async function insertUnique<T extends { _id: string }>(
  collection: Collection<T>,
  doc: T,
): Promise<InsertOutcome> {
  try {
    await collection.insertOne(doc as Parameters<Collection<T>["insertOne"]>[0]);
    return "inserted";
  } catch (err) {
    if (isDuplicateKeyError(err)) return "already_exists";
    throw err;
  }
}

function userFromDocument({ _id, ...rest }: UserDocument): DashboardUser {
  return { id: _id, ...rest };
}

class MongoDashboardUserRepository implements DashboardUserRepository {
  constructor(private readonly users: Collection<UserDocument>) {}

  insert(user: DashboardUser): Promise<InsertOutcome> {
    const { id, ...rest } = user;
    return runMongo(() => insertUnique(this.users, { _id: id, ...rest }));
  }

  findById(id: string): Promise<DashboardUser | undefined> {
    return runMongo(async () => {
      const doc = await this.users.findOne({ _id: id });
      return doc ? userFromDocument(doc) : undefined;
    });
  }

  findByEmail(email: string): Promise<DashboardUser | undefined> {
    return runMongo(async () => {
      const doc = await this.users.findOne({ email });
      return doc ? userFromDocument(doc) : undefined;
    });
  }

  listByMerchant(merchantId: string): Promise<DashboardUser[]> {
    return runMongo(async () =>
      (await this.users.find({ merchantId }).sort({ createdAt: 1, _id: 1 }).limit(1000).toArray()).map(
        userFromDocument,
      ),
    );
  }

  changePassword(
    id: string,
    passwordHash: string,
    at: Date,
    expectedGeneration: number,
  ): Promise<DashboardUser | undefined> {
    return runMongo(async () => {
      const doc = await this.users.findOneAndUpdate(
        { _id: id, sessionGeneration: expectedGeneration },
        { $set: { passwordHash, passwordChangedAt: at }, $inc: { sessionGeneration: 1 } },
        { returnDocument: "after" },
      );
      return doc ? userFromDocument(doc) : undefined;
    });
  }

  raiseSessionGeneration(id: string): Promise<DashboardUser | undefined> {
    return runMongo(async () => {
      const doc = await this.users.findOneAndUpdate(
        { _id: id },
        { $inc: { sessionGeneration: 1 } },
        { returnDocument: "after" },
      );
      return doc ? userFromDocument(doc) : undefined;
    });
  }
}

/**
 * Invitations. Acceptance is decided by a unique insert into the acceptances collection, not
 * by a conditional update: FerretDB does not isolate concurrent conditional updates, and a
 * link must work exactly once on both servers.
 */
class MongoInvitationRepository implements InvitationRepository {
  constructor(
    private readonly invitations: Collection<InvitationDocument>,
    private readonly acceptances: Collection<AcceptanceDocument>,
  ) {}

  insert(invitation: Invitation): Promise<InsertOutcome> {
    const { id, ...rest } = invitation;
    return runMongo(() => insertUnique(this.invitations, { _id: id, ...rest }));
  }

  findByTokenHash(tokenHash: string): Promise<Invitation | undefined> {
    return runMongo(async () => {
      const doc = await this.invitations.findOne({ tokenHash });
      if (!doc) return undefined;
      const { _id, ...rest } = doc;
      const acceptance = await this.acceptances.findOne({ _id });
      return { id: _id, ...rest, ...(acceptance ? { acceptedAt: acceptance.at } : {}) };
    });
  }

  markAccepted(id: string, at: Date): Promise<boolean> {
    return runMongo(async () => {
      if ((await insertUnique(this.acceptances, { _id: id, at })) !== "inserted") return false;
      await this.invitations.updateOne({ _id: id }, { $set: { acceptedAt: at } });
      return true;
    });
  }
}

class MongoDashboardSessionRepository implements DashboardSessionRepository {
  constructor(private readonly sessions: Collection<SessionDocument>) {}

  insert(session: DashboardSession): Promise<void> {
    const { tokenHash, ...rest } = session;
    return runMongo(async () => {
      // Sessions that ran out go when their user signs in again: the collection stays bounded
      // by users without a TTL index (which FerretDB does not apply).
      await this.sessions.deleteMany({ userId: session.userId, expiresAt: { $lte: session.createdAt } });
      await this.sessions.insertOne({ _id: tokenHash, ...rest });
    });
  }

  find(tokenHash: string): Promise<DashboardSession | undefined> {
    return runMongo(async () => {
      const doc = await this.sessions.findOne({ _id: tokenHash });
      if (!doc) return undefined;
      const { _id, ...rest } = doc;
      return { tokenHash: _id, ...rest };
    });
  }

  delete(tokenHash: string): Promise<void> {
    return runMongo(async () => {
      await this.sessions.deleteOne({ _id: tokenHash });
    });
  }

  deleteForUser(userId: string): Promise<void> {
    return runMongo(async () => {
      await this.sessions.deleteMany({ userId });
    });
  }
}

/**
 * One document per failed sign-in, counted per key and window. Inserts are never lost under
 * concurrency, where a $inc on FerretDB can be (it does not isolate concurrent updates), and a
 * throttle that loses counts lets a parallel guesser through.
 */
class MongoSignInFailureCounter implements SignInFailureCounter {
  constructor(private readonly failures: Collection<FailureDocument>) {}

  add(key: string, windowStart: Date): Promise<number> {
    return runMongo(async () => {
      await this.failures.insertOne({ _id: `${key}|${randomUUID()}`, key, windowStart });
      // Failures of earlier windows no longer count: they go as new ones arrive.
      await this.failures.deleteMany({ key, windowStart: { $lt: windowStart } });
      return this.failures.countDocuments({ key, windowStart });
    });
  }

  count(key: string, windowStart: Date): Promise<number> {
    return runMongo(() => this.failures.countDocuments({ key, windowStart }));
  }

  clear(key: string): Promise<void> {
    return runMongo(async () => {
      await this.failures.deleteMany({ key });
    });
  }
}

/** The dashboard stores on MongoDB, with their indexes (created idempotently). */
export async function createMongoDashboardStores(db: Db): Promise<DashboardStores> {
  const users = db.collection<UserDocument>(DASHBOARD_COLLECTIONS.users);
  const invitations = db.collection<InvitationDocument>(DASHBOARD_COLLECTIONS.invitations);
  const sessions = db.collection<SessionDocument>(DASHBOARD_COLLECTIONS.sessions);
  const acceptances = db.collection<AcceptanceDocument>(DASHBOARD_COLLECTIONS.invitationAcceptances);
  const failures = db.collection<FailureDocument>(DASHBOARD_COLLECTIONS.signInFailures);
  await runMongo(async () => {
    await users.createIndex({ email: 1 }, { name: "email_unique", unique: true });
    await users.createIndex({ merchantId: 1, createdAt: 1 }, { name: "merchantId_createdAt" });
    await invitations.createIndex({ tokenHash: 1 }, { name: "tokenHash_unique", unique: true });
    await sessions.createIndex({ userId: 1 }, { name: "userId" });
    await failures.createIndex({ key: 1, windowStart: 1 }, { name: "key_windowStart" });
  });
  return {
    users: new MongoDashboardUserRepository(users),
    invitations: new MongoInvitationRepository(invitations, acceptances),
    sessions: new MongoDashboardSessionRepository(sessions),
    signInFailures: new MongoSignInFailureCounter(failures),
  };
}
