import { signingSecrets, type WebhookEndpoint } from "./webhook-endpoint.js";

export const NO_ENDPOINT_MESSAGE = "No webhook endpoint configured";

export type DeliveryTarget =
  | { ok: true; url: string; secrets: string[]; toAccountEndpoint: boolean }
  /** Nothing is sent; the attempt is recorded FAILED with `message` and not retried (resend once fixed). */
  | { ok: false; url: string; message: string };

/**
 * Where an attempt goes and what signs it (docs/api/webhooks.md#where-events-go: the session's webhook_url, else the
 * account's endpoint for the mode). Resolved at send time, so retries and resends follow a
 * changed endpoint and a rotated secret.
 */
export function resolveDeliveryTarget(
  sessionUrl: string | undefined,
  endpoint: WebhookEndpoint | undefined,
  now: Date,
): DeliveryTarget {
  const url = sessionUrl || endpoint?.url || "";
  if (url === "") return { ok: false, url, message: NO_ENDPOINT_MESSAGE };
  if (!endpoint) {
    return {
      ok: false,
      url,
      message:
        "No webhook secret configured for this account and mode: set the webhook endpoint (or rotate its secret), then resend",
    };
  }
  const toAccountEndpoint = !sessionUrl;
  if (toAccountEndpoint && endpoint.disabledAt) {
    return {
      ok: false,
      url,
      message: `Webhook endpoint disabled after the receiver answered 410 Gone (${endpoint.disabledAt.toISOString()}); set the endpoint again to re-enable it`,
    };
  }
  return { ok: true, url, secrets: signingSecrets(endpoint, now), toAccountEndpoint };
}

/** The URL shown on a PENDING attempt before it is sent: the best current guess. */
export function expectedUrl(sessionUrl: string | undefined, endpoint: WebhookEndpoint | undefined): string {
  return sessionUrl || endpoint?.url || "";
}
