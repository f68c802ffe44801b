import type { FeePlan } from "../domain/fees.js";
import type {
  AccountScope,
  AttemptStatus,
  Session,
  SessionChanges,
  SessionStatus,
} from "../domain/session.js";
import type { SessionEvent, SessionEventType } from "../domain/session-events.js";

export type InsertResult =
  | { inserted: true }
  /** A session with this (merchant, mode, merchant_reference) exists: the one to converge on. */
  | { inserted: false; duplicate: "merchant_reference"; existing: Session }
  /** A generated value (id, order number, checkout token) collided: draw new ones and retry. */
  | { inserted: false; duplicate: "generated_value" };

export type UpdateResult =
  | { updated: true; session: Session }
  /** The stored version moved on (or the session is gone): `current` is what is stored now. */
  | { updated: false; current: Session | undefined };

export interface SessionListFilter {
  status?: SessionStatus;
  createdGte?: Date;
  createdLte?: Date;
  merchantReference?: string;
  orderNumber?: string;
  /** Settlement amount (TND), in minor units: equality only. */
  amountMinor?: bigint;
}

import type { ListPosition } from "@gateway/platform";

export type { ListPosition };

export interface SessionPage {
  sessions: Session[];
  hasMore: boolean;
}

/**
 * An event, appended to the session's outbox by the very update that made the change it
 * reports, then published by the outbox relay.
 */
export interface OutboxEvent {
  eventId: string;
  type: SessionEventType;
  /** The session's event sequence (1, 2, 3…); the update stores it as the session's last. */
  sequence: number;
  occurredAt: Date;
  /** The protobuf SessionEvent, published as it is. */
  payload: Uint8Array;
  /** Headers to publish with: the W3C trace context of the change. */
  headers: Record<string, string>;
}

export interface PendingOutboxEvent extends OutboxEvent {
  sessionId: string;
}

/** Published outbox entries a session keeps (newest), for support; older ones are dropped. */
export const PUBLISHED_OUTBOX_KEPT = 50;

/** The outbox side of the session store, all the relay needs. */
export interface OutboxStore {
  /**
   * Events not yet published, at most `limit`, each session's in sequence order. A session's
   * events are never split by the limit in a way that skips one: the list holds a prefix of
   * each session's pending events.
   */
  findPendingOutbox(limit: number): Promise<PendingOutboxEvent[]>;
  /**
   * Marks one event published (idempotent: unknown or already published is a no-op) and
   * drops the oldest published entries beyond PUBLISHED_OUTBOX_KEPT, in one atomic update.
   */
  markOutboxPublished(sessionId: string, eventId: string, publishedAt: Date): Promise<void>;
}

/**
 * Sessions and their event outbox, one document each. Every method taking a `scope` is confined
 * to it: a session of another merchant or of the other mode is never seen, read or changed.
 */
export interface SessionRepository extends OutboxStore {
  /**
   * Stores a new session. Unique: the id, (merchant, mode, merchant_reference), the order
   * number and every checkout token. Concurrent inserts of one reference: one wins, the others
   * get the winner back.
   */
  insert(session: Session): Promise<InsertResult>;
  findById(scope: AccountScope, id: string): Promise<Session | undefined>;
  findByReference(scope: AccountScope, merchantReference: string): Promise<Session | undefined>;
  /** Newest first by (createdAt desc, id desc); at most `limit` sessions after `after`. */
  list(
    scope: AccountScope,
    filter: SessionListFilter,
    page: { limit: number; after?: ListPosition },
  ): Promise<SessionPage>;
  /**
   * Atomically applies `changes` to `current`, the stored state they were decided on, when the
   * stored version is still `current.version`, and bumps the version. Confined to
   * `current.scope`. Single-document compare-and-set: the base of every state change. `events`
   * are appended to the session's outbox in the same update, so a change and its event are
   * stored together or not at all. A store may derive fields from `current` with `changes`
   * applied (the sweeper's next due time): the compare-and-set makes them agree with what it holds.
   */
  updateIf(current: Session, changes: SessionChanges, events?: readonly OutboxEvent[]): Promise<UpdateResult>;
  /**
   * The session holding the checkout link `token`, whatever its account: the hosted page is
   * addressed by the unguessable token alone.
   */
  findByCheckoutToken(token: string): Promise<Session | undefined>;
  /** The session with an attempt registered under this acquirer order id (the acquirer's return and callback name only it). */
  findByAcquirerOrderId(acquirerOrderId: string): Promise<Session | undefined>;
  /**
   * Sessions the sweeper has work on at `now`, across every account, at most `limit`, the most
   * overdue first: a payable session past its lifetime, a link expiry due (`linkExpiryDueAt`),
   * or reconciliation due (`reconcileAt`). With `dueSince`, only work that fell due at or after
   * it (the sweeper's usual look: what fell due since shortly before its previous look).
   */
  findDue(now: Date, limit: number, dueSince?: Date): Promise<Session[]>;
}

/** Told of every payment attempt that ended, for metrics (never with a merchant or session id). */
export interface PaymentObserver {
  /** `attempt` was just stored SUCCEEDED, FAILED (declined) or ABANDONED, with its failure code. */
  attemptSettled(attempt: { status: AttemptStatus; failureCode?: string; duplicatePayment?: boolean }): void;
}

/** Told what the sweeper did, for metrics (operators alert on late payments it could not return). */
export interface SweepObserver {
  /** One session looked at under a claim: swept, or failed (tried again on the next look). */
  sessionSwept(outcome: "swept" | "failed"): void;
  /** An event the sweep stored (session.expired, checkout.session.expired, session.late_payment_returned). */
  eventStored(type: string): void;
  /** A late payment's return at the acquirer: done, or failed for now. */
  latePaymentReturn(outcome: "returned" | "failed"): void;
}

/**
 * Exclusive, expiring claims on named work, shared by every replica: the sweeper holds one per
 * session while it works on it. A holder that dies leaves its claim to run out; after `until`
 * another replica may take it.
 */
export interface SweepLocks {
  /** Takes `key` for `holder` until `until`; false when another holder has it and it has not run out at `now`. */
  acquire(key: string, holder: string, until: Date, now: Date): Promise<boolean>;
  /** Gives `key` up when `holder` still has it (no-op otherwise). */
  release(key: string, holder: string): Promise<void>;
}

/** The account's exchange rates (1 unit of `currency` = rate TND). */
export interface ExchangeRateProvider {
  /** Six-decimal rate text; undefined when the account has none configured for the currency. */
  rateFor(merchantId: string, currency: string): Promise<string | undefined>;
}

/** The merchant's acquirer terminal for an account and mode (accounts' ResolveTerminalCredentials). */
export type { TerminalProvider } from "@gateway/acquirer";

/** The merchant's fee plan (accounts' GetFeePlan); a merchant without one has a zero plan. */
export interface FeePlanProvider {
  feePlanFor(merchantId: string): Promise<FeePlan>;
}

/** Merchant names for the hosted page (accounts' GetMerchant). */
export interface MerchantDirectory {
  /** undefined when no such merchant exists. */
  merchantName(merchantId: string): Promise<string | undefined>;
}

/** Turns a domain event into what the outbox stores and the relay publishes. */
export interface SessionEventEncoder {
  /** `session` is the session as it is right after the change the event reports. */
  encode(event: SessionEvent, session: Session): { payload: Uint8Array; headers: Record<string, string> };
}

/** Told after a change that appended events, so the relay publishes them without waiting for its next poll. */
export interface OutboxSignal {
  wake(): void;
}

export const DEFAULT_CHECKOUT_LINK_LIMIT = 5;

export interface SessionsSettings {
  /** Public base of the gateway, e.g. https://pay.example.com; checkout links hang off it. */
  publicBaseUrl: string;
  sessionLifetimeMs: number;
  checkoutLinkLifetimeMs: number;
  /** Most unexpired checkout links a session may have at once; default 5. */
  checkoutLinkLimit?: number;
  /** Bound on each acquirer call, as the acquirer adapter was given; default 15 s. */
  acquirerTimeoutMs?: number;
  /** Pause between re-checks of an unsettled attempt (or an unreturned late payment) with the acquirer; default 1 min. */
  reconcileIntervalMs?: number;
}
