import type { Timestamp } from "@bufbuild/protobuf/wkt";
import type { JsonOutput } from "@gateway/platform";
import { type FieldViolation, GatewayError } from "@gateway/platform";
import type { ApiKey, DashboardUser, Invitation, Merchant } from "@gateway/proto";
import type { JsonObject } from "../http/json-body.js";
import { violation } from "./field-violations.js";
import { formatTimestamp, parseRfc3339 } from "./rfc3339.js";

export function merchantToJson(merchant: Merchant | undefined): JsonOutput {
  if (!merchant) throw new Error("accounts service answered without a merchant");
  return {
    id: merchant.id,
    name: merchant.name,
    verified: merchant.verified,
    created_at: formatTimestamp(merchant.createdAt),
  };
}

function modeOf(key: ApiKey): "live" | "test" {
  return key.livemode ? "live" : "test";
}

/** The one answer that shows the secret key (docs/api/admin.md#merchants-and-api-keys). */
export function createdApiKeyToJson(key: ApiKey | undefined, secret: string): JsonOutput {
  if (!key) throw new Error("accounts service answered without an API key");
  return {
    id: key.id,
    mode: modeOf(key),
    key: secret,
    created_at: formatTimestamp(key.createdAt),
    expires_at: formatTimestamp(key.expiresAt),
  };
}

export function revokedApiKeyToJson(key: ApiKey | undefined): JsonOutput {
  if (!key) throw new Error("accounts service answered without an API key");
  return {
    id: key.id,
    mode: modeOf(key),
    created_at: formatTimestamp(key.createdAt),
    expires_at: formatTimestamp(key.expiresAt),
    revoked_at: formatTimestamp(key.revokedAt),
  };
}

/**
 * Reads an admin body against its member types. Admin calls have no input_violations channel,
 * so type errors are answered here (422) before any service call; the service validates meaning.
 */
export class AdminBodyReader {
  readonly violations: FieldViolation[] = [];

  constructor(
    private readonly body: JsonObject,
    private readonly known: string[],
  ) {}

  private value(name: string): unknown {
    return Object.hasOwn(this.body, name) && this.body[name] !== null ? this.body[name] : undefined;
  }

  requiredString(name: string, numberMessage?: string): string {
    const value = this.value(name);
    if (value === undefined) this.violations.push(violation.required(name));
    else if (typeof value === "string") return value;
    else
      this.violations.push(
        typeof value === "number" && numberMessage
          ? violation.invalid(name, numberMessage)
          : violation.notString(name),
      );
    return "";
  }

  optionalTimestamp(name: string): Timestamp | undefined {
    const value = this.value(name);
    if (value === undefined) return undefined;
    const at = typeof value === "string" ? parseRfc3339(value) : undefined;
    if (!at)
      this.violations.push(
        violation.invalid(name, "Must be an RFC 3339 date-time such as 2027-01-31T12:00:00Z."),
      );
    return at;
  }

  finish(): void {
    for (const name of Object.keys(this.body)) {
      if (!this.known.includes(name)) this.violations.push(violation.unknown(name));
    }
    if (this.violations.length > 0) throw GatewayError.validation(this.violations);
  }
}

export function readCreateMerchantBody(body: JsonObject): { name: string } {
  const reader = new AdminBodyReader(body, ["name"]);
  const name = reader.requiredString("name");
  reader.finish();
  return { name };
}

export function readCreateApiKeyBody(body: JsonObject): {
  livemode: boolean;
  expiresAt: Timestamp | undefined;
} {
  const reader = new AdminBodyReader(body, ["mode", "expires_at"]);
  const mode = reader.requiredString("mode");
  if (mode !== "" && mode !== "test" && mode !== "live")
    reader.violations.push(violation.invalid("mode", 'Must be "test" or "live".'));
  const expiresAt = reader.optionalTimestamp("expires_at");
  reader.finish();
  return { livemode: mode === "live", expiresAt };
}

export function readExchangeRateBody(body: JsonObject): { rate: string } {
  const reader = new AdminBodyReader(body, ["rate"]);
  const rate = reader.requiredString(
    "rate",
    'Must be a decimal string such as "3.350000", not a JSON number.',
  );
  reader.finish();
  return { rate };
}

export function readDashboardInvitationBody(body: JsonObject): { email: string; role: string } {
  const reader = new AdminBodyReader(body, ["email", "role"]);
  const email = reader.requiredString("email");
  const role = reader.requiredString("role");
  reader.finish();
  return { email, role };
}

/**
 * The one answer that shows an invitation link (docs/api/admin.md#dashboard-users): the operator
 * hands it to the merchant; it is logged nowhere and stored only hashed.
 */
export function dashboardInvitationToJson(invitation: Invitation | undefined, url: string): JsonOutput {
  if (!invitation) throw new Error("accounts service answered without an invitation");
  return {
    id: invitation.id,
    merchant_id: invitation.merchantId,
    email: invitation.email,
    role: invitation.role,
    expires_at: formatTimestamp(invitation.expiresAt),
    url,
  };
}

export function dashboardUserToJson(user: DashboardUser): JsonOutput {
  return {
    id: user.id,
    merchant_id: user.merchantId,
    email: user.email,
    role: user.role,
    created_at: formatTimestamp(user.createdAt),
    password_changed_at: formatTimestamp(user.passwordChangedAt),
  };
}
