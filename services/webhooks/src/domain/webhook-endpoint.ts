import type { AccountScope } from "./account-scope.js";

/**
 * Where an account's webhooks go in one mode, and the secrets that sign them. The secret
 * belongs to the (account, mode) and also signs deliveries to a session's own webhook_url.
 */
export interface WebhookEndpoint {
  scope: AccountScope;
  /** Absent when only a secret was created (rotate-secret before any URL was set). */
  url?: string;
  /** `whsec_…`, the current secret (stored encrypted by the Mongo adapter). */
  secret: string;
  /** The secret replaced by the last rotation, still signing until `previousSecretExpiresAt`. */
  previousSecret?: string;
  previousSecretExpiresAt?: Date;
  /** Set when the receiver answered 410 Gone; SetEndpoint clears it. */
  disabledAt?: Date;
  disabledReason?: string;
  /** The event types (or `refund.*`) the endpoint receives; absent: the default set (event-subscriptions.ts). */
  enabledEvents?: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** The secrets a delivery is signed with now: the current one first, then the previous one while its overlap lasts. */
export function signingSecrets(endpoint: WebhookEndpoint, now: Date): string[] {
  const previous =
    endpoint.previousSecret !== undefined &&
    endpoint.previousSecretExpiresAt !== undefined &&
    endpoint.previousSecretExpiresAt.getTime() > now.getTime()
      ? [endpoint.previousSecret]
      : [];
  return [endpoint.secret, ...previous];
}
