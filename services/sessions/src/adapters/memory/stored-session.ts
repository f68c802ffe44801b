import type { SessionListFilter } from "../../app/ports.js";
import type { AccountScope, Session, SessionStatus } from "../../domain/session.js";
import { decodeSession, encodeSession } from "./session-codec.js";

/**
 * What the in-memory store keeps of a session: the whole session encoded as one string
 * (./session-codec.ts), beside the few members its looks compare without decoding it (scope,
 * version, and what a list filters on). A session kept as objects was some sixty heap objects
 * for the garbage collector to trace on every major collection, so these members are kept as
 * plain values where they can be: a time as epoch ms rather than a Date, an amount as a small
 * integer rather than a bigint
 * (docs/decisions.md#sessions-in-memory-are-kept-encoded).
 */
export interface StoredSession {
  readonly id: string;
  readonly merchantId: string;
  readonly livemode: boolean;
  readonly version: number;
  readonly createdAtMs: number;
  readonly status: SessionStatus;
  readonly merchantReference: string;
  readonly orderNumber: string;
  readonly amountMinor: CompactMinor;
  readonly encoded: string;
}

/**
 * An amount in minor units as a number when it is at most 2^30 - 1, which V8 keeps inside the
 * record itself (a "small integer"), else as the bigint: every amount a bigint was one more heap
 * object per stored session.
 */
type CompactMinor = number | bigint;

const SMALL_INTEGER_MAX = 2n ** 30n - 1n;

const compactMinor = (amountMinor: bigint): CompactMinor =>
  amountMinor >= 0n && amountMinor <= SMALL_INTEGER_MAX ? Number(amountMinor) : amountMinor;

/** `kept` when it is the same text as `fresh`: one string, not two, for what a session never changes. */
const sameText = (kept: string | undefined, fresh: string): string => (kept === fresh ? kept : fresh);

/** The session to keep; `previous`, what was kept of it before, lends the strings that did not change. */
export function storeSession(session: Session, previous?: StoredSession): StoredSession {
  return {
    id: sameText(previous?.id, session.id),
    merchantId: sameText(previous?.merchantId, session.scope.merchantId),
    livemode: session.scope.livemode,
    version: session.version,
    createdAtMs: session.createdAt.getTime(),
    status: session.status,
    merchantReference: sameText(previous?.merchantReference, session.merchantReference),
    orderNumber: sameText(previous?.orderNumber, session.orderNumber),
    amountMinor: compactMinor(session.amountMinor),
    encoded: encodeSession(session),
  };
}

/** A fresh copy of the stored session: the caller may change it freely. */
export function decodeStoredSession(stored: StoredSession): Session {
  return decodeSession(stored.encoded);
}

export const storedInScope = (stored: StoredSession, scope: AccountScope): boolean =>
  stored.merchantId === scope.merchantId && stored.livemode === scope.livemode;

export function storedMatchesListFilter(stored: StoredSession, filter: SessionListFilter): boolean {
  return (
    (filter.status === undefined || stored.status === filter.status) &&
    (filter.merchantReference === undefined || stored.merchantReference === filter.merchantReference) &&
    (filter.orderNumber === undefined || stored.orderNumber === filter.orderNumber) &&
    (filter.amountMinor === undefined || stored.amountMinor === compactMinor(filter.amountMinor)) &&
    (filter.createdLte === undefined || stored.createdAtMs <= filter.createdLte.getTime())
  );
}
