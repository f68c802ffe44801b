import type { FieldViolation } from "@gateway/platform";

/**
 * Roles of a merchant's dashboard users. An owner manages everything, including the other
 * users and the audit log; a developer manages keys, webhooks, settings and payments; a viewer
 * reads and changes nothing.
 */
export const DASHBOARD_ROLES = ["owner", "developer", "viewer"] as const;
export type DashboardRole = (typeof DASHBOARD_ROLES)[number];

/** What a role may do in the dashboard. */
export type DashboardPermission = "read" | "manage" | "manage_users";

const PERMISSIONS: Record<DashboardRole, readonly DashboardPermission[]> = {
  owner: ["read", "manage", "manage_users"],
  developer: ["read", "manage"],
  viewer: ["read"],
};

export function roleAllows(role: DashboardRole, permission: DashboardPermission): boolean {
  return PERMISSIONS[role].includes(permission);
}

export function isDashboardRole(value: string): value is DashboardRole {
  return (DASHBOARD_ROLES as readonly string[]).includes(value);
}

/** A person who signs in to one merchant's dashboard. Never holds the password itself. */
export interface DashboardUser {
  id: string;
  merchantId: string;
  /** Lowercased; unique across the gateway (one sign-in name, one merchant). */
  email: string;
  role: DashboardRole;
  passwordHash: string;
  /**
   * Raised by a password change and by "sign out everywhere": a dashboard session minted under
   * an older generation no longer authenticates, on every edge at once.
   */
  sessionGeneration: number;
  createdAt: Date;
  passwordChangedAt: Date;
}

/** The user as other services and pages see it: no password hash. */
export type DashboardUserView = Omit<DashboardUser, "passwordHash">;

export function viewOf(user: DashboardUser): DashboardUserView {
  const { passwordHash: _hidden, ...view } = user;
  return view;
}

export const MAX_EMAIL_LENGTH = 254;
// A pragmatic address check: one @, a dotted domain, no spaces or control characters. Mail is
// never sent (invitations are links shown to whoever invites), so this guards typos and junk.
const EMAIL_PATTERN = /^[^\s@\p{Cc}\p{Cf}]+@[^\s@\p{Cc}\p{Cf}]+\.[^\s@\p{Cc}\p{Cf}]+$/u;

export function normalizeEmail(raw: string): string {
  return raw.trim().normalize("NFC").toLowerCase();
}

export function emailViolations(email: string, field = "email"): FieldViolation[] {
  if (email.length === 0) return [{ field, code: "required", message: "email is required." }];
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(email)) {
    return [{ field, code: "invalid", message: "email must be an address like name@example.com." }];
  }
  return [];
}

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

/**
 * Length is the rule (NIST SP 800-63B): at least 12 characters, at most 256 (scrypt's cost is
 * bounded by its parameters, the bound keeps request bodies sane), and not the email itself.
 */
export function passwordViolations(password: string, email: string, field = "password"): FieldViolation[] {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) {
    return [
      {
        field,
        code: "too_short",
        message: `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`,
      },
    ];
  }
  if (length > MAX_PASSWORD_LENGTH) {
    return [
      {
        field,
        code: "too_long",
        message: `The password must have at most ${MAX_PASSWORD_LENGTH} characters.`,
      },
    ];
  }
  if (normalizeEmail(password) === email) {
    return [{ field, code: "invalid", message: "The password must not be the email address." }];
  }
  return [];
}
