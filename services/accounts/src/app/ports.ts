import type { ListPosition, PageWindow } from "@gateway/platform";
import type { ApiKey } from "../domain/api-key.js";
import type { AuditEntry } from "../domain/audit-entry.js";
import type { BusinessVerification } from "../domain/business-verification.js";
import type { ExchangeRate } from "../domain/exchange-rate.js";
import type { FeePlan } from "../domain/fee-plan.js";
import type { Merchant } from "../domain/merchant.js";
import type { Terminal } from "../domain/terminal.js";
import type { DashboardStores } from "./dashboard-ports.js";

/** Result of an insert that must not overwrite: adapters turn duplicate-key errors into this. */
export type InsertOutcome = "inserted" | "already_exists";

export interface MerchantRepository {
  /** Stores a new merchant; "already_exists" when its id is taken (nothing is changed then). */
  insert(merchant: Merchant): Promise<InsertOutcome>;
  findById(id: string): Promise<Merchant | undefined>;
  /** Sets verified; returns the merchant as stored afterwards, undefined when it does not exist. */
  markVerified(id: string): Promise<Merchant | undefined>;
}

/** Every read is bounded: a merchant's key list stops at its newest this many (rolled keys pile up). */
export const MAX_LISTED_API_KEYS = 1000;

export interface ApiKeyRepository {
  /**
   * Stores a new key; "already_exists" when its id or lookup id is taken (nothing is changed then).
   * With `secret`, the key itself is kept sealed (test keys) and the stored key is `retrievable`.
   */
  insert(key: ApiKey, secret?: string): Promise<InsertOutcome>;
  /** The kept key of a retrievable key; undefined when none is kept (live keys, older test keys). */
  openSecret(id: string): Promise<string | undefined>;
  /**
   * Makes the key stop working at `at` at the latest (an earlier expiry stays); a revoked key is
   * left as it is. Returns the key as stored afterwards, undefined when it does not exist.
   */
  expireBy(id: string, at: Date): Promise<ApiKey | undefined>;
  /** Records that the key authenticated a request at `at`. */
  recordUse(id: string, at: Date): Promise<void>;
  findById(id: string): Promise<ApiKey | undefined>;
  findByLookupId(lookupId: string): Promise<ApiKey | undefined>;
  /** The merchant's keys, newest first (ties broken by id), at most MAX_LISTED_API_KEYS of them. */
  listByMerchant(merchantId: string): Promise<ApiKey[]>;
  /**
   * Revokes the key at `at` unless it is already revoked (then the first revocation time stays).
   * Returns the key as stored afterwards, undefined when it does not exist.
   */
  markRevoked(id: string, at: Date): Promise<ApiKey | undefined>;
}

export interface ExchangeRateRepository {
  /**
   * Creates or replaces the rate of (merchantId, currency) and appends it to the pair's history,
   * so every rate a session may have been priced with stays on record.
   */
  upsert(rate: ExchangeRate): Promise<void>;
  find(merchantId: string, currency: string): Promise<ExchangeRate | undefined>;
  /** The merchant's current rates, one per currency, in currency order. */
  listByMerchant(merchantId: string): Promise<ExchangeRate[]>;
  /**
   * Every rate ever set for the merchant (only `currency`'s when given), newest first, at most
   * `limit` of them.
   */
  listHistory(merchantId: string, options: { currency?: string; limit: number }): Promise<ExchangeRate[]>;
}

/**
 * Terminals, one per (merchantId, livemode). The password is stored sealed (AES-256-GCM): the
 * adapter seals it on write, and only `findWithPassword` opens it, so reading a terminal's
 * settings never needs (or fails for want of) the secrets key.
 */
export interface TerminalRepository {
  /** Creates or replaces the terminal of (merchantId, livemode), password included. */
  upsert(terminal: Terminal, password: string): Promise<void>;
  /** The terminal's settings, without the password. */
  find(merchantId: string, livemode: boolean): Promise<Terminal | undefined>;
  /** The terminal with a way to open its password, which is decrypted only when asked for. */
  findWithPassword(merchantId: string, livemode: boolean): Promise<StoredTerminal | undefined>;
}

export interface StoredTerminal {
  terminal: Terminal;
  /**
   * Decrypts the password. Throws SecretUnreadableError (the platform secret box) when it cannot be
   * opened with the configured keys (GATEWAY_SECRETS_KEY changed, record altered).
   */
  openPassword(): string;
}

export interface FeePlanRepository {
  /** Creates or replaces the merchant's plan. */
  upsert(plan: FeePlan & { updatedAt: Date }): Promise<void>;
  /** The stored plan; undefined when none was ever set. */
  find(merchantId: string): Promise<(FeePlan & { updatedAt: Date }) | undefined>;
}

/** One verification per merchant; a new submission replaces the details and the decision. */
export interface BusinessVerificationRepository {
  save(verification: BusinessVerification): Promise<void>;
  find(merchantId: string): Promise<BusinessVerification | undefined>;
  /** Pending verifications, oldest first, at most `limit`. */
  listPending(limit: number): Promise<BusinessVerification[]>;
  /**
   * Records the operator's decision on a PENDING verification submitted at `submittedAt` (so a
   * decision never lands on details submitted after the operator read them). Returns the
   * verification as stored afterwards; undefined when there was nothing pending to decide.
   */
  decide(
    merchantId: string,
    submittedAt: Date,
    decision: { status: "approved" | "rejected"; decidedAt: Date; reason?: string },
  ): Promise<BusinessVerification | undefined>;
}

/** The dashboard's audit log: append-only, read newest first per merchant. */
export interface AuditLogRepository {
  append(entry: AuditEntry): Promise<void>;
  /** The entry `id` of the merchant, as a cursor (undefined when it is another merchant's). */
  findPosition(merchantId: string, id: string): Promise<ListPosition | undefined>;
  list(merchantId: string, window: PageWindow): Promise<{ items: AuditEntry[]; hasMore: boolean }>;
}

export interface AccountsRepositories {
  merchants: MerchantRepository;
  apiKeys: ApiKeyRepository;
  exchangeRates: ExchangeRateRepository;
  terminals: TerminalRepository;
  feePlans: FeePlanRepository;
  /** Dashboard users, invitations, sessions and sign-in failures. */
  dashboard: DashboardStores;
  businessVerifications: BusinessVerificationRepository;
  auditLog: AuditLogRepository;
}
