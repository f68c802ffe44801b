import { copyRecord } from "@gateway/platform";
import type { EndpointRepository } from "../../app/ports.js";
import type { AccountScope } from "../../domain/account-scope.js";
import type { WebhookEndpoint } from "../../domain/webhook-endpoint.js";

const key = (scope: AccountScope) => `${scope.merchantId}\n${scope.livemode ? "live" : "test"}`;

/**
 * Webhook endpoints in this process (embedded mode, unit tests). Secrets live only in memory
 * here; the Mongo adapter is the one that stores them encrypted.
 */
export class InMemoryEndpointRepository implements EndpointRepository {
  private readonly byScope = new Map<string, WebhookEndpoint>();

  async find(scope: AccountScope): Promise<WebhookEndpoint | undefined> {
    const endpoint = this.byScope.get(key(scope));
    return endpoint ? copyRecord(endpoint) : undefined;
  }

  async setUrl(
    scope: AccountScope,
    url: string,
    newSecret: string,
    now: Date,
  ): Promise<{ endpoint: WebhookEndpoint; secretCreated: boolean }> {
    const existing = this.byScope.get(key(scope));
    if (existing) {
      const { disabledAt: _d, disabledReason: _r, ...enabled } = existing;
      const endpoint: WebhookEndpoint = { ...enabled, url, updatedAt: now };
      this.byScope.set(key(scope), endpoint);
      return { endpoint: copyRecord(endpoint), secretCreated: false };
    }
    const endpoint: WebhookEndpoint = {
      scope: { ...scope },
      url,
      secret: newSecret,
      createdAt: now,
      updatedAt: now,
    };
    this.byScope.set(key(scope), endpoint);
    return { endpoint: copyRecord(endpoint), secretCreated: true };
  }

  async rotateSecret(
    scope: AccountScope,
    newSecret: string,
    previousExpiresAt: Date,
    now: Date,
  ): Promise<{ endpoint: WebhookEndpoint; rotated: boolean }> {
    const existing = this.byScope.get(key(scope));
    const endpoint: WebhookEndpoint = existing
      ? {
          ...existing,
          secret: newSecret,
          previousSecret: existing.secret,
          previousSecretExpiresAt: previousExpiresAt,
          updatedAt: now,
        }
      : { scope: { ...scope }, secret: newSecret, createdAt: now, updatedAt: now };
    this.byScope.set(key(scope), endpoint);
    return { endpoint: copyRecord(endpoint), rotated: existing !== undefined };
  }

  async ensureSecret(scope: AccountScope, newSecret: string, now: Date): Promise<WebhookEndpoint> {
    const existing = this.byScope.get(key(scope));
    if (existing) return copyRecord(existing);
    const endpoint: WebhookEndpoint = {
      scope: { ...scope },
      secret: newSecret,
      createdAt: now,
      updatedAt: now,
    };
    this.byScope.set(key(scope), endpoint);
    return copyRecord(endpoint);
  }

  async setSubscriptions(
    scope: AccountScope,
    events: string[],
    newSecret: string,
    now: Date,
  ): Promise<WebhookEndpoint> {
    const existing = this.byScope.get(key(scope));
    const endpoint: WebhookEndpoint = existing
      ? { ...existing, enabledEvents: [...events], updatedAt: now }
      : {
          scope: { ...scope },
          secret: newSecret,
          enabledEvents: [...events],
          createdAt: now,
          updatedAt: now,
        };
    this.byScope.set(key(scope), endpoint);
    return copyRecord(endpoint);
  }

  async disable(scope: AccountScope, url: string, at: Date, reason: string): Promise<boolean> {
    const existing = this.byScope.get(key(scope));
    if (!existing || existing.url !== url || existing.disabledAt) return false;
    this.byScope.set(key(scope), { ...existing, disabledAt: at, disabledReason: reason, updatedAt: at });
    return true;
  }
}
