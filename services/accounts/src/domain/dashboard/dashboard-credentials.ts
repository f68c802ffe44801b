import { randomBase62, sha256Hex } from "@gateway/platform";
import type { DashboardRole } from "./dashboard-user.js";

// Invitation links and dashboard sessions are bearer secrets: 43 base62 characters (~256 bits)
// behind a prefix that says what they are. Only a SHA-256 is stored: a fast hash suffices for
// long random secrets, and a stolen database yields no usable link or session.

export type SecretTokenKind = "inv" | "dss";

export function newSecretToken(kind: SecretTokenKind): string {
  return `${kind}_${randomBase62(43)}`;
}

const TOKEN_PATTERN = /^(inv|dss)_[0-9A-Za-z]{43}$/;

/** Whether the text has the shape of a token of this kind (checked before any lookup). */
export function isSecretToken(kind: SecretTokenKind, text: string): boolean {
  const match = TOKEN_PATTERN.exec(text);
  return match !== null && match[1] === kind;
}

export function hashSecretToken(token: string): string {
  return sha256Hex(token);
}

/** A one-time invitation to join a merchant's dashboard with a role. */
export interface Invitation {
  id: string;
  merchantId: string;
  email: string;
  role: DashboardRole;
  tokenHash: string;
  /** "operator" (the admin API) or the id of the owner who invited. */
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt?: Date;
}

/** A signed-in browser. Valid until `expiresAt` and while the user's generation is unchanged. */
export interface DashboardSession {
  tokenHash: string;
  userId: string;
  merchantId: string;
  generation: number;
  createdAt: Date;
  expiresAt: Date;
}

export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** An absolute lifetime: a stolen cookie is worth at most a working day. */
export const DASHBOARD_SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;

/**
 * Sign-in throttling: failures are counted per email and per client address in fixed windows;
 * past the limit, sign-in is refused (even with the right password) until the window ends.
 * Per email stops guessing one account's password; per address stops one client spraying many.
 */
export const SIGN_IN_THROTTLE = {
  windowMs: 15 * 60 * 1000,
  maxFailuresPerEmail: 5,
  maxFailuresPerAddress: 20,
} as const;

/** The start of the throttle window `at` falls in. */
export function throttleWindowStart(at: Date, windowMs: number = SIGN_IN_THROTTLE.windowMs): Date {
  return new Date(Math.floor(at.getTime() / windowMs) * windowMs);
}
