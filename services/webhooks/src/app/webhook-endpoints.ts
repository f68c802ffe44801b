import { type Clock, GatewayError } from "@gateway/platform";
import { generateWebhookSecret } from "@gateway/webhook-signature";
import type { AccountScope } from "../domain/account-scope.js";
import { validateEndpointUrl } from "../domain/endpoint-url.js";
import { readSubscriptions } from "../domain/event-subscriptions.js";
import type { WebhookEndpoint } from "../domain/webhook-endpoint.js";
import type { EndpointRepository } from "./ports.js";

export interface EndpointDeps {
  endpoints: EndpointRepository;
  clock: Clock;
}

export interface SetEndpointResult {
  url: string;
  /** The new secret, only when this call created it (first set); never shown again. */
  secret?: string;
}

/**
 * Sets the account's webhook URL for a mode (and re-enables an endpoint disabled after 410
 * Gone). The first set creates the endpoint's secret and returns it, like an API key: it is
 * never returned again (rotate it to get a new one).
 */
export async function setEndpoint(
  deps: EndpointDeps,
  scope: AccountScope,
  rawUrl: string,
): Promise<SetEndpointResult> {
  const url = validateEndpointUrl(rawUrl, scope.livemode);
  const candidate = generateWebhookSecret();
  const { endpoint, secretCreated } = await deps.endpoints.setUrl(scope, url, candidate, deps.clock.now());
  return { url: endpoint.url ?? url, ...(secretCreated ? { secret: endpoint.secret } : {}) };
}

export interface RotateSecretResult {
  secret: string;
  /** Until when the replaced secret still signs; absent when there was none (first secret). */
  previousSecretExpiresAt?: Date;
}

/**
 * Replaces the signing secret. For `overlapMs` afterwards every delivery carries two `v1`
 * signatures (new and old), so receivers can switch at their pace. Creates the first secret
 * when the account has none yet (a merchant using only per-session webhook URLs).
 */
export async function rotateSecret(
  deps: EndpointDeps,
  scope: AccountScope,
  overlapMs: number,
): Promise<RotateSecretResult> {
  if (!Number.isSafeInteger(overlapMs) || overlapMs < 0)
    throw new GatewayError("INTERNAL", "The secret overlap is misconfigured.");
  const now = deps.clock.now();
  const previousExpiresAt = new Date(now.getTime() + overlapMs);
  const secret = generateWebhookSecret();
  const { rotated } = await deps.endpoints.rotateSecret(scope, secret, previousExpiresAt, now);
  return { secret, ...(rotated ? { previousSecretExpiresAt: previousExpiresAt } : {}) };
}

/**
 * Chooses the events the account receives in this mode (docs/api/webhooks.md#event-subscriptions):
 * known event types or `refund.*`. Creates the endpoint's secret when there is none yet.
 */
export async function setSubscriptions(
  deps: EndpointDeps,
  scope: AccountScope,
  events: readonly string[],
): Promise<WebhookEndpoint> {
  const read = readSubscriptions(events);
  if (!read.ok) throw GatewayError.validation(read.violations);
  return deps.endpoints.setSubscriptions(scope, read.events, generateWebhookSecret(), deps.clock.now());
}

/** How long a replaced secret may keep signing, as the dashboard offers it: now, an hour, a day. */
export const ROTATION_OVERLAPS_SECONDS = [0, 3600, 86_400] as const;

/** The dashboard's rotation: `overlapSeconds` is one of ROTATION_OVERLAPS_SECONDS. */
export async function rotateSecretWithOverlap(
  deps: EndpointDeps,
  scope: AccountScope,
  overlapSeconds: number,
): Promise<WebhookEndpoint> {
  if (!(ROTATION_OVERLAPS_SECONDS as readonly number[]).includes(overlapSeconds)) {
    throw GatewayError.validation([
      { field: "overlap_seconds", code: "invalid", message: "overlap_seconds must be 0, 3600 or 86400." },
    ]);
  }
  await rotateSecret(deps, scope, overlapSeconds * 1000);
  const endpoint = await deps.endpoints.find(scope);
  if (!endpoint) throw new Error("rotating the secret left no endpoint");
  return endpoint;
}

/** The scope's endpoint, with a signing secret created now when there was none. */
export function endpointWithSecret(deps: EndpointDeps, scope: AccountScope): Promise<WebhookEndpoint> {
  return deps.endpoints.ensureSecret(scope, generateWebhookSecret(), deps.clock.now());
}
