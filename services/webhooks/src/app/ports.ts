import type { AccountScope } from "../domain/account-scope.js";
import type { Delivery, DeliveryResult, DeliveryStatus } from "../domain/delivery.js";
import type { WebhookEndpoint } from "../domain/webhook-endpoint.js";
import type { WebhookEvent } from "../domain/webhook-event.js";

/** Result of an insert that must not overwrite: adapters turn duplicate-key errors into this. */
export type InsertOutcome = "inserted" | "already_exists";

export interface DeliveryFilter {
  status?: DeliveryStatus;
  event?: string;
  sessionId?: string;
  eventId?: string;
  createdGte?: Date;
  createdLte?: Date;
  /** Leave out attempts known to be superseded by a later attempt of their event. */
  latestOnly?: boolean;
}

import type { ListPosition } from "@gateway/platform";

export type { ListPosition };

export interface DeliveryPage {
  deliveries: Delivery[];
  hasMore: boolean;
}

/**
 * Delivery attempts. PENDING attempts are the work queue: `claimNextDue` hands each due attempt
 * to one caller at a time (a lease), so any number of dispatchers share it, and an attempt whose
 * lease ran out (its dispatcher died) is handed out again.
 */
export interface DeliveryRepository {
  /**
   * Stores a new attempt; "already_exists" when its id or (eventId, attemptNumber) is taken.
   * The unique (eventId, attemptNumber) is what hands out attempt numbers safely (insertNextAttempt).
   */
  insert(delivery: Delivery): Promise<InsertOutcome>;
  findById(id: string): Promise<Delivery | undefined>;
  /** Confined to `scope`: another account's attempt is never found. */
  findInScope(scope: AccountScope, id: string): Promise<Delivery | undefined>;
  /** The attempt of the event with the highest attempt number. */
  latestForEvent(eventId: string): Promise<Delivery | undefined>;
  /**
   * Notes that the event's attempts numbered below `attemptNumber` are superseded (a later one
   * exists), so `latestOnly` lists skip them. A hint: a note that was never written (a crash)
   * only makes such lists longer, never wrong.
   */
  markSuperseded(eventId: string, attemptNumber: number): Promise<void>;
  /**
   * Atomically takes the PENDING attempt due the longest (dueAt <= now) whose lease is absent or
   * expired, setting the lease to (token, leaseUntil). Undefined when nothing is due.
   */
  claimNextDue(
    now: Date,
    leaseUntil: Date,
    token: string,
    /** Leave attempts to these URLs where they are (their endpoint has all the sends it may). */
    skipUrls?: readonly string[],
  ): Promise<Delivery | undefined>;
  /**
   * The same for up to `tokens.length` attempts at once, oldest due first, each leased to its own
   * token. Fewer (or none) when fewer are due.
   */
  claimDue(
    now: Date,
    leaseUntil: Date,
    tokens: readonly string[],
    skipUrls?: readonly string[],
  ): Promise<Delivery[]>;
  /**
   * Due attempts whose lease is absent or expired, oldest due first, at most `limit`, none of
   * them claimed: what a look found beyond its free slots, claimed later by id (claimIfDue).
   */
  findDue(now: Date, limit: number, skipUrls?: readonly string[]): Promise<Delivery[]>;
  /**
   * The same for one known attempt (found by id, not by a look over the queue): takes it when it
   * is PENDING, due and its lease is absent or expired. Undefined otherwise (unknown, settled,
   * not yet due, or taken by someone else).
   */
  claimIfDue(id: string, now: Date, leaseUntil: Date, token: string): Promise<Delivery | undefined>;
  /**
   * Records the outcome of a claimed attempt and drops the lease, only if it is still PENDING
   * and the lease is still `token`'s. False when someone else took it over (nothing changed).
   */
  complete(id: string, token: string, result: DeliveryResult): Promise<boolean>;
  /**
   * Gives back a lease `token` holds and will not use (an attempt queued here, not started): the
   * lease ends at `now`, so any dispatcher may claim the attempt at once. Only while the lease is
   * still running, so it never races a takeover. False when the lease was not `token`'s or the
   * attempt is settled (nothing changed).
   */
  release(id: string, token: string, now: Date): Promise<boolean>;
  /** Newest first by (createdAt desc, id desc), confined to `scope`; at most `limit` after `after`. */
  list(
    scope: AccountScope,
    filter: DeliveryFilter,
    page: { limit: number; after?: ListPosition },
  ): Promise<DeliveryPage>;
}

/** Events as received, with their envelope bytes. */
export interface WebhookEventRepository {
  /** Stores the event unless its id is known ("already_exists": the stored one, and its body, win). */
  insert(event: WebhookEvent): Promise<InsertOutcome>;
  findById(id: string): Promise<WebhookEvent | undefined>;
}

/**
 * Webhook endpoints, one per (account, mode). Secrets are handled in plaintext here; the Mongo
 * adapter stores them encrypted.
 */
export interface EndpointRepository {
  find(scope: AccountScope): Promise<WebhookEndpoint | undefined>;
  /**
   * Sets the URL and re-enables the endpoint. When the scope has no endpoint yet it is created
   * with `newSecret` and `secretCreated` is true; otherwise the stored secret stays.
   */
  setUrl(
    scope: AccountScope,
    url: string,
    newSecret: string,
    now: Date,
  ): Promise<{ endpoint: WebhookEndpoint; secretCreated: boolean }>;
  /**
   * Makes `newSecret` current; the replaced one stays valid until `previousExpiresAt` (only one
   * previous secret is kept). Creates the endpoint (without a URL) when there is none:
   * `rotated` is false then and there is no previous secret.
   */
  rotateSecret(
    scope: AccountScope,
    newSecret: string,
    previousExpiresAt: Date,
    now: Date,
  ): Promise<{ endpoint: WebhookEndpoint; rotated: boolean }>;
  /**
   * The scope's endpoint, created without a URL and with `newSecret` when there is none, so the
   * account and mode always have a signing secret (a session's own webhook_url is signed with
   * it). An existing endpoint is returned unchanged; racing callers all get the one created.
   */
  ensureSecret(scope: AccountScope, newSecret: string, now: Date): Promise<WebhookEndpoint>;
  /**
   * Sets the events the endpoint receives; creates it (without a URL, with `newSecret`) when the
   * scope has none. Returns the endpoint as stored afterwards.
   */
  setSubscriptions(
    scope: AccountScope,
    events: string[],
    newSecret: string,
    now: Date,
  ): Promise<WebhookEndpoint>;
  /** Disables the endpoint if its URL is still `url` and it is enabled; true when it did. */
  disable(scope: AccountScope, url: string, at: Date, reason: string): Promise<boolean>;
}

/**
 * How webhooks replicas tell each other that an account's endpoint changed, so none keeps
 * sending with what it remembered. Best effort: a replica cut off from the others misses
 * notices, which is why remembered endpoints are also forgotten after a few seconds.
 */
export interface EndpointChangeNotices {
  /** Tells the other replicas; never throws and never waits. */
  announce(scope: AccountScope): void;
  /** Calls `onChange` for each change another replica announces; returns how to stop. */
  listen(onChange: (scope: AccountScope) => void): () => void;
}

export interface WebhooksStores {
  deliveries: DeliveryRepository;
  events: WebhookEventRepository;
  endpoints: EndpointRepository;
}

/** One POST of an event's body, signed with `secrets` at `timestamp` by the sender. */
export interface SignedSendRequest {
  url: string;
  /** The stored envelope bytes, sent unchanged. */
  body: Uint8Array;
  /** The event id: X-Service-Webhook-Id. */
  webhookId: string;
  event: string;
  /** Current secret first, then the previous one while its rotation overlap lasts. */
  secrets: string[];
  /** Unix seconds of this attempt. */
  timestamp: number;
  timeoutMs: number;
  /** The event's W3C trace context: the send is traced as part of the publisher's trace. */
  traceContext?: Record<string, string>;
}

export interface WebhookSendOutcome {
  ok: boolean;
  httpStatus?: number;
  responseTimeMs: number;
  /** Stored as the delivery's error_message, shown to the merchant: neutral, no network facts. */
  errorMessage?: string;
  /** For operators only (logs): the precise cause, with addresses and error codes. */
  errorDetail?: string;
  /** Bounded label of the failure, for metrics (e.g. dns, refused, forbidden_address). */
  failureCause?: string;
  /** The receiver's Retry-After, in ms. */
  retryAfterMs?: number;
  /** 410 Gone. */
  gone: boolean;
  /** The headers sent (none when nothing was sent). */
  sentHeaders?: Record<string, string>;
  /** The first 1 KiB of the receiver's answer, as text. */
  responseExcerpt?: string;
}

/** Signs and sends one attempt (adapters/delivery: the headers of docs/api/webhooks.md over HTTP). */
export interface WebhookSender {
  send(request: SignedSendRequest): Promise<WebhookSendOutcome>;
}
