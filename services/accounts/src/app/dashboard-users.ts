import { GatewayError, newId } from "@gateway/platform";
import {
  DASHBOARD_SESSION_LIFETIME_MS,
  type DashboardSession,
  hashSecretToken,
  INVITATION_LIFETIME_MS,
  type Invitation,
  isSecretToken,
  newSecretToken,
  SIGN_IN_THROTTLE,
  throttleWindowStart,
} from "../domain/dashboard/dashboard-credentials.js";
import {
  type DashboardRole,
  type DashboardUser,
  type DashboardUserView,
  emailViolations,
  isDashboardRole,
  normalizeEmail,
  passwordViolations,
  viewOf,
} from "../domain/dashboard/dashboard-user.js";
import {
  DUMMY_PASSWORD_HASH_PROMISE,
  hashPassword,
  verifyPassword,
} from "../domain/dashboard/password-hash.js";
import type { DashboardDeps } from "./dashboard-ports.js";

// Merchant users of the dashboard: invitations, sign-in with throttling, sessions that end at
// sign-out, at "sign out everywhere" and at a password change. Decisions:
// docs/decisions.md#dashboard-users-and-sign-in-groundwork-in-accounts.

/** The same answer for an unknown, used or expired link: a link is no oracle. */
const INVITATION_GONE = () =>
  new GatewayError("NOT_FOUND", "This invitation link is not valid any more. Ask for a new one.");
const BAD_CREDENTIALS = () => new GatewayError("UNAUTHORIZED", "Incorrect email or password.");
const SESSION_ENDED = () =>
  new GatewayError("UNAUTHORIZED", "The dashboard session has ended. Sign in again.");

export interface IssuedInvitation {
  invitation: Invitation;
  /** The link's secret: shown once to whoever invited, never stored or logged. */
  token: string;
}

export interface SignedIn {
  /** The session cookie's value: given to the browser once, never stored or logged. */
  token: string;
  session: DashboardSession;
  user: DashboardUserView;
}

export interface AuthenticatedSession {
  session: DashboardSession;
  user: DashboardUserView;
}

export async function inviteDashboardUser(
  deps: DashboardDeps,
  input: { merchantId: string; email: string; role: string; invitedBy: string },
): Promise<IssuedInvitation> {
  const email = normalizeEmail(input.email);
  const violations = [
    ...emailViolations(email),
    ...(isDashboardRole(input.role)
      ? []
      : [{ field: "role", code: "invalid", message: "role must be owner, developer or viewer." }]),
  ];
  if (violations.length > 0) throw GatewayError.validation(violations);
  if (!(await deps.merchantExists(input.merchantId)))
    throw GatewayError.notFound("merchant", input.merchantId);
  if (await deps.stores.users.findByEmail(email)) {
    throw new GatewayError("CONFLICT", "A dashboard user with this email already exists.");
  }
  const now = deps.clock.now();
  const token = newSecretToken("inv");
  const invitation: Invitation = {
    id: newId("inv"),
    merchantId: input.merchantId,
    email,
    role: input.role as DashboardRole,
    tokenHash: hashSecretToken(token),
    invitedBy: input.invitedBy,
    createdAt: now,
    expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS),
  };
  if ((await deps.stores.invitations.insert(invitation)) !== "inserted") {
    throw new GatewayError("INTERNAL", "Internal error.", {
      cause: new Error("invitation id or token collision"),
    });
  }
  return { invitation, token };
}

/** The open invitation a link names (for the page that asks for a password), or NOT_FOUND. */
export async function openInvitation(deps: DashboardDeps, token: string): Promise<Invitation> {
  if (!isSecretToken("inv", token)) throw INVITATION_GONE();
  const invitation = await deps.stores.invitations.findByTokenHash(hashSecretToken(token));
  if (!invitation || invitation.acceptedAt || invitation.expiresAt.getTime() <= deps.clock.now().getTime()) {
    throw INVITATION_GONE();
  }
  return invitation;
}

/** Turns an invitation into a user with the chosen password; the link works once. */
export async function acceptInvitation(
  deps: DashboardDeps,
  input: { token: string; password: string },
): Promise<DashboardUserView> {
  const invitation = await openInvitation(deps, input.token);
  const violations = passwordViolations(input.password, invitation.email);
  if (violations.length > 0) throw GatewayError.validation(violations);
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  if (!(await deps.stores.invitations.markAccepted(invitation.id, now))) throw INVITATION_GONE();
  const user: DashboardUser = {
    id: newId("usr"),
    merchantId: invitation.merchantId,
    email: invitation.email,
    role: invitation.role,
    passwordHash,
    sessionGeneration: 0,
    createdAt: now,
    passwordChangedAt: now,
  };
  if ((await deps.stores.users.insert(user)) !== "inserted") {
    throw new GatewayError("CONFLICT", "A dashboard user with this email already exists.");
  }
  return viewOf(user);
}

function throttleKeys(email: string, clientAddress: string): { email: string; address: string } {
  return { email: `email:${email}`, address: `address:${clientAddress}` };
}

async function refuseWhenThrottled(
  deps: DashboardDeps,
  keys: { email: string; address: string },
  windowStart: Date,
): Promise<void> {
  const [byEmail, byAddress] = await Promise.all([
    deps.stores.signInFailures.count(keys.email, windowStart),
    deps.stores.signInFailures.count(keys.address, windowStart),
  ]);
  if (
    byEmail >= SIGN_IN_THROTTLE.maxFailuresPerEmail ||
    byAddress >= SIGN_IN_THROTTLE.maxFailuresPerAddress
  ) {
    const retryAfterMs = windowStart.getTime() + SIGN_IN_THROTTLE.windowMs - deps.clock.now().getTime();
    throw new GatewayError(
      "RATE_LIMIT_EXCEEDED",
      "Too many failed sign-ins. Wait a few minutes, then try again.",
      {
        metadata: { retry_after_seconds: String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
      },
    );
  }
}

async function recordFailure(
  deps: DashboardDeps,
  keys: { email: string; address: string },
  windowStart: Date,
): Promise<void> {
  await Promise.all([
    deps.stores.signInFailures.add(keys.email, windowStart),
    deps.stores.signInFailures.add(keys.address, windowStart),
  ]);
}

async function startSession(deps: DashboardDeps, user: DashboardUser): Promise<SignedIn> {
  const now = deps.clock.now();
  const token = newSecretToken("dss");
  const session: DashboardSession = {
    tokenHash: hashSecretToken(token),
    userId: user.id,
    merchantId: user.merchantId,
    generation: user.sessionGeneration,
    createdAt: now,
    expiresAt: new Date(now.getTime() + DASHBOARD_SESSION_LIFETIME_MS),
  };
  await deps.stores.sessions.insert(session);
  return { token, session, user: viewOf(user) };
}

/**
 * Checks the password and opens a session. Unknown emails cost a real scrypt verification too,
 * and get the same answer as a wrong password, so neither timing nor text tells who has an
 * account. Throttled sign-ins are refused before the password is looked at.
 */
export async function signIn(
  deps: DashboardDeps,
  input: { email: string; password: string; clientAddress: string },
): Promise<SignedIn> {
  const email = normalizeEmail(input.email);
  const keys = throttleKeys(email, input.clientAddress);
  const windowStart = throttleWindowStart(deps.clock.now());
  await refuseWhenThrottled(deps, keys, windowStart);
  const user = await deps.stores.users.findByEmail(email);
  const matches = await verifyPassword(
    input.password,
    user?.passwordHash ?? (await DUMMY_PASSWORD_HASH_PROMISE()),
  );
  if (!user || !matches) {
    await recordFailure(deps, keys, windowStart);
    throw BAD_CREDENTIALS();
  }
  await deps.stores.signInFailures.clear(keys.email);
  return startSession(deps, user);
}

/** The session and its user, or UNAUTHORIZED when it is unknown, expired or ended. */
export async function authenticateDashboardSession(
  deps: DashboardDeps,
  token: string,
): Promise<AuthenticatedSession & { full: DashboardUser }> {
  if (!isSecretToken("dss", token)) throw SESSION_ENDED();
  const tokenHash = hashSecretToken(token);
  const session = await deps.stores.sessions.find(tokenHash);
  if (!session) throw SESSION_ENDED();
  if (session.expiresAt.getTime() <= deps.clock.now().getTime()) {
    await deps.stores.sessions.delete(tokenHash);
    throw SESSION_ENDED();
  }
  const user = await deps.stores.users.findById(session.userId);
  if (!user || user.sessionGeneration !== session.generation) throw SESSION_ENDED();
  return { session, user: viewOf(user), full: user };
}

export async function signOut(deps: DashboardDeps, token: string): Promise<void> {
  if (isSecretToken("dss", token)) await deps.stores.sessions.delete(hashSecretToken(token));
}

/** Ends every session of the signed-in user, this one included. */
export async function signOutEverywhere(deps: DashboardDeps, token: string): Promise<void> {
  const { user } = await authenticateDashboardSession(deps, token);
  await deps.stores.users.raiseSessionGeneration(user.id);
  await deps.stores.sessions.deleteForUser(user.id);
}

/**
 * Changes the password of the signed-in user after checking the current one (a wrong one counts
 * as a failed sign-in). Every session ends, and the caller gets a fresh one.
 */
export async function changePassword(
  deps: DashboardDeps,
  input: { token: string; currentPassword: string; newPassword: string; clientAddress: string },
): Promise<SignedIn> {
  const { full: user } = await authenticateDashboardSession(deps, input.token);
  const keys = throttleKeys(user.email, input.clientAddress);
  const windowStart = throttleWindowStart(deps.clock.now());
  await refuseWhenThrottled(deps, keys, windowStart);
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    await recordFailure(deps, keys, windowStart);
    throw GatewayError.validation([
      { field: "current_password", code: "invalid", message: "The current password is not correct." },
    ]);
  }
  const violations = passwordViolations(input.newPassword, user.email, "new_password");
  if (violations.length > 0) throw GatewayError.validation(violations);
  const changed = await deps.stores.users.changePassword(
    user.id,
    await hashPassword(input.newPassword),
    deps.clock.now(),
    user.sessionGeneration,
  );
  if (!changed) throw SESSION_ENDED();
  await deps.stores.sessions.deleteForUser(user.id);
  return startSession(deps, changed);
}

export async function listDashboardUsers(
  deps: DashboardDeps,
  merchantId: string,
): Promise<DashboardUserView[]> {
  return (await deps.stores.users.listByMerchant(merchantId)).map(viewOf);
}
