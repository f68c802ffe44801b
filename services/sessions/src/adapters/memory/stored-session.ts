import { decodeRecord, encodeRecord } from "@gateway/platform";
import type { SessionListFilter } from "../../app/ports.js";
import type { AccountScope, Session, SessionStatus } from "../../domain/session.js";

/**
 * What the in-memory store keeps of a session: the whole session encoded as one string, beside
 * the few members its looks compare without decoding it (scope, version, and what a list
 * filters on). A session kept as objects was some sixty heap objects for the garbage collector
 * to trace on every major collection (docs/decisions.md#sessions-in-memory-are-kept-encoded).
 */
export interface StoredSession {
  readonly id: string;
  readonly merchantId: string;
  readonly livemode: boolean;
  readonly version: number;
  readonly createdAt: Date;
  readonly status: SessionStatus;
  readonly merchantReference: string;
  readonly orderNumber: string;
  readonly amountMinor: bigint;
  readonly encoded: string;
}

export function storeSession(session: Session): StoredSession {
  return {
    id: session.id,
    merchantId: session.scope.merchantId,
    livemode: session.scope.livemode,
    version: session.version,
    createdAt: new Date(session.createdAt.getTime()),
    status: session.status,
    merchantReference: session.merchantReference,
    orderNumber: session.orderNumber,
    amountMinor: session.amountMinor,
    encoded: encodeRecord(session),
  };
}

/** A fresh copy of the stored session: the caller may change it freely. */
export function decodeStoredSession(stored: StoredSession): Session {
  return decodeRecord<Session>(stored.encoded);
}

export const storedInScope = (stored: StoredSession, scope: AccountScope): boolean =>
  stored.merchantId === scope.merchantId && stored.livemode === scope.livemode;

export function storedMatchesListFilter(stored: StoredSession, filter: SessionListFilter): boolean {
  return (
    (filter.status === undefined || stored.status === filter.status) &&
    (filter.merchantReference === undefined || stored.merchantReference === filter.merchantReference) &&
    (filter.orderNumber === undefined || stored.orderNumber === filter.orderNumber) &&
    (filter.amountMinor === undefined || stored.amountMinor === filter.amountMinor) &&
    (filter.createdLte === undefined || stored.createdAt.getTime() <= filter.createdLte.getTime())
  );
}
