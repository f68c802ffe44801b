import type { PaidSessionRecord } from "../domain/paid-session-record.js";
import type { AccountScope, FinalRefundStatus, Refund } from "../domain/refund.js";
import type { PendingRefundEvent, RefundOutboxEvent } from "../domain/refund-events.js";
import type { PaidSession } from "../domain/refund-rules.js";

/**
 * The session to refund, as the sessions service knows it (GetSession). undefined when the
 * session does not exist for this account and mode.
 */
export interface PaidSessionLookup {
  find(scope: AccountScope, sessionId: string): Promise<PaidSession | undefined>;
}

/** The merchant's acquirer terminal for an account and mode (accounts' ResolveTerminalCredentials). */
export type { TerminalProvider } from "@gateway/acquirer";

/**
 * Each session's refunded total, kept so that the refunds of a session never sum past what was
 * paid, whatever the number of concurrent requests and replicas.
 */
export interface BalanceLedger {
  /** What refunds have taken from the session so far (succeeded and pending manual). */
  refundedMinor(sessionId: string): Promise<bigint>;
  /**
   * Takes `decide(refundedSoFar)` from the session for `refundId`, atomically against every
   * other reservation: `decide` sees the refunded total as it is when the amount is taken and
   * may throw (nothing is taken then). Idempotent on `refundId`: a repeat returns the amount
   * taken the first time without calling `decide`.
   */
  reserve(sessionId: string, refundId: string, decide: (refundedMinor: bigint) => bigint): Promise<bigint>;
  /** Gives back what `refundId` took (a refund found not to have happened). Idempotent. */
  release(sessionId: string, refundId: string): Promise<void>;
}

/** The acquirer's answer on a refund it could not confirm: the refund stays PENDING_MANUAL. */
export interface AcquirerAnswer {
  automated: false;
  acquirerErrorMessage: string;
  method: Refund["method"];
  updatedAt: Date;
}

/** How a refund ends, and the event that tells the merchant. */
export interface Settlement {
  status: FinalRefundStatus;
  automated?: boolean;
  acquirerErrorMessage?: string;
  method?: Refund["method"];
  resolutionNote?: string;
  updatedAt: Date;
  event: RefundOutboxEvent;
}

export interface SettleResult {
  /** The refund as stored once settled, by this call or by an earlier one. */
  refund: Refund;
  /** True when this call's settlement is the one that counts. */
  won: boolean;
}

/** The outbox side of the refund store, all the relay needs. */
export interface RefundOutboxStore {
  /** Events not yet published, at most `limit`, the longest-waiting refunds first. */
  findPendingOutbox(limit: number): Promise<PendingRefundEvent[]>;
  /** Marks one event published. Idempotent: an unknown or already published event is a no-op. */
  markOutboxPublished(refundId: string, eventId: string, publishedAt: Date): Promise<void>;
}

/** Told of refund outcomes, for metrics. */
export interface RefundObserver {
  /** The acquirer could not confirm a refund: it waits for operations. */
  refundPendingManual(): void;
  /** A refund ended, settled by the acquirer's answer or by operations. Counted once, by the settlement that won. */
  refundSettled(status: FinalRefundStatus, settledBy: "acquirer" | "operations"): void;
}

/** Refund records. Methods taking a scope never see another account's or mode's refunds. */
export interface RefundRepository extends RefundOutboxStore {
  /** Stores a new refund; false (nothing stored) when a refund with its id exists: the id is unique. */
  insert(refund: Refund): Promise<boolean>;
  findById(scope: AccountScope, id: string): Promise<Refund | undefined>;
  /** For operations' manual queue, which works across accounts. */
  findByIdAnyScope(id: string): Promise<Refund | undefined>;
  /**
   * Records why the acquirer could not confirm a refund still waiting for it (PENDING_MANUAL);
   * returns the refund as stored afterwards, or undefined when it is gone or already settled.
   */
  recordAcquirerAnswer(id: string, answer: AcquirerAnswer): Promise<Refund | undefined>;
  /**
   * Ends a PENDING_MANUAL refund as SUCCEEDED or FAILED, once. The first settlement decided
   * for a refund wins, whatever the number of callers and processes; it is stored on the refund
   * together with its event, in one write, so the status and the event exist together or not
   * at all. A later call gets the winner back (`won: false`), after finishing its write if a
   * stop had interrupted it. Undefined when the refund does not exist.
   */
  settle(id: string, settlement: Settlement): Promise<SettleResult | undefined>;
  /** Refunds waiting for operations, oldest first, across every account. */
  listPendingManual(limit: number): Promise<Refund[]>;
  /** One session's refunds in the scope, oldest first (id breaks ties), at most `limit`. */
  listBySession(scope: AccountScope, sessionId: string, limit: number): Promise<Refund[]>;
}

/** Turns a refund's event into the bytes the outbox stores and the relay publishes. */
export interface RefundEventEncoder {
  /** `refund` is the refund as it is right after the change the event reports. */
  encode(event: Omit<RefundOutboxEvent, "payload">, refund: Refund): Uint8Array;
}

/** Told after a refund stored an event, so the relay publishes it without waiting for its next look. */
export interface OutboxSignal {
  wake(): void;
}

/**
 * What each paid session was paid, learned from session.succeeded events (or from the sessions
 * service when a refund comes first). Insert-only, one record per session.
 */
export interface PaidSessionStore {
  /**
   * Keeps `record` unless the session has one already; returns the record that stands (the
   * earlier one when there was one) and whether this call stored it.
   */
  record(record: PaidSessionRecord): Promise<{ stored: boolean; record: PaidSessionRecord }>;
  find(scope: AccountScope, sessionId: string): Promise<PaidSessionRecord | undefined>;
}
