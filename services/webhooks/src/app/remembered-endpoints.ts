import { AnswerMemory, type Clock } from "@gateway/platform";
import type { AccountScope } from "../domain/account-scope.js";
import type { WebhookEndpoint } from "../domain/webhook-endpoint.js";
import type { EndpointChangeNotices, EndpointRepository } from "./ports.js";

/**
 * How long a replica trusts an endpoint it read without hearing of a change: the bound on
 * staleness when a change notice is lost (core NATS keeps nothing for a replica that was cut off).
 */
export const REMEMBER_ENDPOINTS_MS = 5_000;

const keyOf = (scope: AccountScope) => `${scope.livemode ? "live" : "test"}:${scope.merchantId}`;

/**
 * `endpoints`, with each account's endpoint (or its absence) remembered between changes
 * (docs/decisions.md#webhooks-remember-endpoints-between-changes): every event read it before its
 * first attempt, and retries and resends read it again, while it changes a few times in an
 * account's life. A change made here updates this replica's memory at once and is announced to
 * the others, which forget the account; anything remembered is also forgotten after `ttlMs`, so
 * a lost announcement costs at most that long. Reads that ask while one is on its way share it.
 */
export function rememberEndpoints(
  endpoints: EndpointRepository,
  o: { clock: Clock; notices: EndpointChangeNotices; ttlMs?: number },
): EndpointRepository & { close(): void } {
  // A read on its way is remembered too, so forgetting an account also drops a read that began
  // before the change: it can never put the old endpoint back.
  const memory = new AnswerMemory<WebhookEndpoint | undefined>(o.clock, o.ttlMs ?? REMEMBER_ENDPOINTS_MS);
  const forget = (scope: AccountScope): void => memory.forget(keyOf(scope));
  const stopListening = o.notices.listen(forget);

  /** Runs a change, then remembers its result here and tells the other replicas. */
  const changed = async <T>(
    scope: AccountScope,
    change: () => Promise<T>,
    endpointOf: (result: T) => WebhookEndpoint | undefined,
  ): Promise<T> => {
    try {
      const result = await change();
      const endpoint = endpointOf(result);
      if (endpoint) memory.remember(keyOf(scope), endpoint);
      else forget(scope);
      return result;
    } catch (err) {
      // A failed change may still have been written: read it afresh next time.
      forget(scope);
      throw err;
    } finally {
      o.notices.announce(scope);
    }
  };

  return {
    find: (scope) => memory.answer(keyOf(scope), () => endpoints.find(scope)),
    setUrl: (scope, url, newSecret, now) =>
      changed(
        scope,
        () => endpoints.setUrl(scope, url, newSecret, now),
        (r) => r.endpoint,
      ),
    rotateSecret: (scope, newSecret, previousExpiresAt, now) =>
      changed(
        scope,
        () => endpoints.rotateSecret(scope, newSecret, previousExpiresAt, now),
        (r) => r.endpoint,
      ),
    ensureSecret: (scope, newSecret, now) =>
      changed(
        scope,
        () => endpoints.ensureSecret(scope, newSecret, now),
        (endpoint) => endpoint,
      ),
    setSubscriptions: (scope, events, newSecret, now) =>
      changed(
        scope,
        () => endpoints.setSubscriptions(scope, events, newSecret, now),
        (endpoint) => endpoint,
      ),
    // Whether or not this call disabled it, the endpoint may have changed: read it afresh.
    disable: (scope, url, at, reason) =>
      changed(
        scope,
        () => endpoints.disable(scope, url, at, reason),
        () => undefined,
      ),
    close: stopListening,
  };
}
