import type { Terminal } from "@gateway/acquirer";
import type { AccountScope, Refund, RefundStatus } from "../domain/refund.js";
import type { PaidSession } from "../domain/refund-rules.js";

/**
 * The session to refund, as the sessions service knows it (GetSession). undefined when the
 * session does not exist for this account and mode.
 */
export interface PaidSessionLookup {
  find(scope: AccountScope, sessionId: string): Promise<PaidSession | undefined>;
}

/** The merchant's acquirer terminal (accounts' ResolveTerminalCredentials). */
export interface TerminalProvider {
  /** Throws NO_TERMINAL_CONFIGURED, TERMINAL_INACTIVE, or SERVICE_UNAVAILABLE (retryable). */
  terminalFor(scope: AccountScope): Promise<Terminal>;
}

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

export interface RefundChanges {
  status: RefundStatus;
  automated?: boolean;
  acquirerErrorMessage?: string;
  method?: Refund["method"];
  resolutionNote?: string;
  updatedAt: Date;
}

/** Refund records. Methods taking a scope never see another account's or mode's refunds. */
export interface RefundRepository {
  /** Stores a new refund; its id is unique. */
  insert(refund: Refund): Promise<void>;
  findById(scope: AccountScope, id: string): Promise<Refund | undefined>;
  /** For operations' manual queue, which works across accounts. */
  findByIdAnyScope(id: string): Promise<Refund | undefined>;
  /**
   * Applies `changes` when the refund's status is still `expectedStatus`; returns the refund
   * as stored afterwards, or undefined when it is gone or its status moved on.
   */
  updateIfStatus(id: string, expectedStatus: RefundStatus, changes: RefundChanges): Promise<Refund | undefined>;
  /** Refunds waiting for operations, oldest first, across every account. */
  listPendingManual(limit: number): Promise<Refund[]>;
}
