import type { AccountScope, Session, SessionChanges, SessionStatus } from "../domain/session.js";

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
}

/** Where a page starts: strictly after this (createdAt, id) in newest-first order. */
export interface ListPosition {
  createdAt: Date;
  id: string;
}

export interface SessionPage {
  sessions: Session[];
  hasMore: boolean;
}

/**
 * Sessions of one account and mode. Every method is confined to `scope`: a session of another
 * merchant or of the other mode is never seen, read or changed.
 */
export interface SessionRepository {
  /**
   * Stores a new session. Unique: the id, (merchant, mode, merchant_reference), the order
   * number and every checkout token. Concurrent inserts of one reference: one wins, the others
   * get the winner back.
   */
  insert(session: Session): Promise<InsertResult>;
  findById(scope: AccountScope, id: string): Promise<Session | undefined>;
  findByReference(scope: AccountScope, merchantReference: string): Promise<Session | undefined>;
  /** Newest first by (createdAt desc, id desc); at most `limit` sessions after `after`. */
  list(scope: AccountScope, filter: SessionListFilter, page: { limit: number; after?: ListPosition }): Promise<SessionPage>;
  /**
   * Atomically applies `changes` when the stored version is still `expectedVersion`, and bumps
   * the version. Single-document compare-and-set: the base of every state change.
   */
  updateIf(scope: AccountScope, id: string, expectedVersion: number, changes: SessionChanges): Promise<UpdateResult>;
}

/** The account's exchange rates (1 unit of `currency` = rate TND). */
export interface ExchangeRateProvider {
  /** Six-decimal rate text; undefined when the account has none configured for the currency. */
  rateFor(merchantId: string, currency: string): Promise<string | undefined>;
}

export interface SessionsSettings {
  /** Public base of the gateway, e.g. https://pay.example.com; checkout links hang off it. */
  publicBaseUrl: string;
  sessionLifetimeMs: number;
  checkoutLinkLifetimeMs: number;
}
