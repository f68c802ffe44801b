import { minorFromStored } from "@gateway/money";
import type { OutboxEvent } from "../../app/ports.js";
import { requestFingerprint } from "../../domain/request-fingerprint.js";
import {
  type AttemptStatus,
  type CheckoutLink,
  type LatePaymentReturnMethod,
  type PaymentAttempt,
  type Session,
  type SessionChanges,
  type SessionStatus,
  type SettlementSource,
  withChanges,
} from "../../domain/session.js";
import type { SessionEventType } from "../../domain/session-events.js";
import { type NextDueFields, nextDueFields } from "./next-due.js";

/**
 * A session as stored in the `sessions` collection. Amounts are BSON Int64 minor units; absent
 * optional fields are stored as null. A state change appends its events to `outbox` in the same
 * single-document update (and counts them in `outboxPending`); the relay marks them published.
 */
export interface SessionDocument {
  id: string;
  merchantId: string;
  livemode: boolean;
  merchantReference: string;
  orderNumber: string;
  orderId: string | null;
  amountMinor: bigint;
  currency: string;
  original: { amountMinor: bigint; currency: string; rate: string };
  description: string | null;
  items: { name: string; quantity: number; unitPriceMinor: bigint; description: string | null }[];
  status: SessionStatus;
  buyer: { firstName: string | null; lastName: string | null; email: string | null; phone: string | null };
  metadataJson: string | null;
  returnUrl: string | null;
  cancelUrl: string | null;
  webhookUrl: string | null;
  maxAttempts: number;
  checkoutLinks: CheckoutLink[];
  attempts: AttemptDocument[];
  expiresAt: Date;
  completedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /**
   * The create's fingerprint, no longer read: a repeat computes it from the stored fields
   * (docs/decisions.md#a-sessions-fingerprint-is-computed-when-a-repeat-arrives). Still written
   * for the versions before, which compare with it; absent from no document.
   */
  requestFingerprint: string;
  version: number;
  outbox: OutboxDocument[];
  /** Sequence of the session's last event. */
  sequence: number;
  /** Outbox entries not yet published. */
  outboxPending: number;
  /** True while `outboxPending` is above 0: what the relay looks for (platform's outbox-flag). */
  outboxUnpublished: boolean;
  /** Bumped by every change to `outbox`: marking published compares it (compare-and-set). */
  outboxRevision: number;
  /** The sweeper's schedule: when the link expiry is due, when to reconcile. */
  linkExpiryDueAt: Date | null;
  reconcileAt: Date | null;
  /**
   * Copies of `checkoutLinks[].token` and `attempts[].acquirerOrderId` as top-level arrays:
   * FerretDB 1.24 pushes an equality on a top-level field down, not one on a path into an array
   * of documents.
   */
  checkoutTokens?: string[];
  acquirerOrderIds?: string[];
  /**
   * The sweeper's next due time (indexed), derived from the schedule on every write. Absent in
   * documents written before it existed: see the backfill in mongo-session-repository.ts.
   */
  nextDueAt?: NextDueFields["nextDueAt"];
  nextDueMinute?: NextDueFields["nextDueMinute"];
  nextDueScheduled?: NextDueFields["nextDueScheduled"];
}

export const tokensOf = (links: readonly CheckoutLink[]): string[] => links.map((l) => l.token);
export const acquirerOrderIdsOf = (attempts: readonly PaymentAttempt[]): string[] =>
  attempts.flatMap((a) => (a.acquirerOrderId !== undefined ? [a.acquirerOrderId] : []));

export interface OutboxDocument {
  eventId: string;
  type: SessionEventType;
  sequence: number;
  occurredAt: Date;
  /** The protobuf SessionEvent, base64. */
  payload: string;
  /** The publish headers as JSON text (header names are not safe stored keys everywhere). */
  headersJson: string;
  publishedAt: Date | null;
}

interface AttemptDocument {
  id: string;
  attemptNumber: number;
  status: AttemptStatus;
  acquirerOrderNumber: string;
  checkoutToken: string;
  acquirerOrderId: string | null;
  formUrl: string | null;
  cardBrand: string | null;
  cardLastFour: string | null;
  cardCountry: string | null;
  failureCode: string | null;
  failureMessage: string | null;
  feeMinor: bigint | null;
  netMinor: bigint | null;
  createdAt: Date;
  settledAt: Date | null;
  settledBy: SettlementSource | null;
  duplicatePayment: boolean;
  returnedAt: Date | null;
  returnMethod: LatePaymentReturnMethod | null;
}

const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

/** `{ key: value }` unless the stored value is null. */
function present<K extends string, T>(key: K, value: T | null | undefined): { [P in K]?: T } {
  return (value === null || value === undefined ? {} : { [key]: value }) as { [P in K]?: T };
}

function attemptToDocument(a: PaymentAttempt): AttemptDocument {
  return {
    id: a.id,
    attemptNumber: a.attemptNumber,
    status: a.status,
    acquirerOrderNumber: a.acquirerOrderNumber,
    checkoutToken: a.checkoutToken,
    acquirerOrderId: orNull(a.acquirerOrderId),
    formUrl: orNull(a.formUrl),
    cardBrand: orNull(a.cardBrand),
    cardLastFour: orNull(a.cardLastFour),
    cardCountry: orNull(a.cardCountry),
    failureCode: orNull(a.failureCode),
    failureMessage: orNull(a.failureMessage),
    feeMinor: orNull(a.feeMinor),
    netMinor: orNull(a.netMinor),
    createdAt: a.createdAt,
    settledAt: orNull(a.settledAt),
    settledBy: orNull(a.settledBy),
    duplicatePayment: a.duplicatePayment === true,
    returnedAt: orNull(a.returnedAt),
    returnMethod: orNull(a.returnMethod),
  };
}

function attemptFromDocument(d: AttemptDocument): PaymentAttempt {
  return {
    id: d.id,
    attemptNumber: Number(d.attemptNumber),
    status: d.status,
    acquirerOrderNumber: d.acquirerOrderNumber,
    checkoutToken: d.checkoutToken,
    ...present("acquirerOrderId", d.acquirerOrderId),
    ...present("formUrl", d.formUrl),
    ...present("cardBrand", d.cardBrand),
    ...present("cardLastFour", d.cardLastFour),
    ...present("cardCountry", d.cardCountry),
    ...present("failureCode", d.failureCode),
    ...present("failureMessage", d.failureMessage),
    ...(d.feeMinor === null || d.feeMinor === undefined ? {} : { feeMinor: minorFromStored(d.feeMinor) }),
    ...(d.netMinor === null || d.netMinor === undefined ? {} : { netMinor: minorFromStored(d.netMinor) }),
    createdAt: d.createdAt,
    ...present("settledAt", d.settledAt),
    ...present("settledBy", d.settledBy),
    ...(d.duplicatePayment === true ? { duplicatePayment: true } : {}),
    ...present("returnedAt", d.returnedAt),
    ...present("returnMethod", d.returnMethod),
  };
}

export function outboxToDocument(e: OutboxEvent): OutboxDocument {
  return {
    eventId: e.eventId,
    type: e.type,
    sequence: e.sequence,
    occurredAt: e.occurredAt,
    payload: Buffer.from(e.payload).toString("base64"),
    headersJson: JSON.stringify(e.headers),
    publishedAt: null,
  };
}

export function outboxFromDocument(d: OutboxDocument): OutboxEvent {
  return {
    eventId: d.eventId,
    type: d.type,
    sequence: Number(d.sequence),
    occurredAt: d.occurredAt,
    payload: new Uint8Array(Buffer.from(d.payload, "base64")),
    headers: JSON.parse(d.headersJson) as Record<string, string>,
  };
}

const linkToDocument = (l: CheckoutLink): CheckoutLink => ({
  token: l.token,
  createdAt: l.createdAt,
  expiresAt: l.expiresAt,
});

export function toDocument(s: Session): SessionDocument {
  return {
    id: s.id,
    merchantId: s.scope.merchantId,
    livemode: s.scope.livemode,
    merchantReference: s.merchantReference,
    orderNumber: s.orderNumber,
    orderId: orNull(s.orderId),
    amountMinor: s.amountMinor,
    currency: s.currency,
    original: { amountMinor: s.original.amountMinor, currency: s.original.currency, rate: s.original.rate },
    description: orNull(s.description),
    items: s.items.map((i) => ({
      name: i.name,
      quantity: i.quantity,
      unitPriceMinor: i.unitPriceMinor,
      description: orNull(i.description),
    })),
    status: s.status,
    buyer: {
      firstName: orNull(s.buyer.firstName),
      lastName: orNull(s.buyer.lastName),
      email: orNull(s.buyer.email),
      phone: orNull(s.buyer.phone),
    },
    metadataJson: orNull(s.metadataJson),
    returnUrl: orNull(s.returnUrl),
    cancelUrl: orNull(s.cancelUrl),
    webhookUrl: orNull(s.webhookUrl),
    maxAttempts: s.maxAttempts,
    checkoutLinks: s.checkoutLinks.map(linkToDocument),
    attempts: s.attempts.map(attemptToDocument),
    expiresAt: s.expiresAt,
    completedAt: orNull(s.completedAt),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    requestFingerprint: requestFingerprint(s),
    version: s.version,
    outbox: [],
    sequence: s.lastEventSequence,
    outboxPending: 0,
    outboxUnpublished: false,
    outboxRevision: 0,
    linkExpiryDueAt: orNull(s.linkExpiryDueAt),
    reconcileAt: orNull(s.reconcileAt),
    checkoutTokens: tokensOf(s.checkoutLinks),
    acquirerOrderIds: acquirerOrderIdsOf(s.attempts),
    ...nextDueFields(s),
  };
}

export function fromDocument(d: SessionDocument): Session {
  return {
    id: d.id,
    scope: { merchantId: d.merchantId, livemode: d.livemode },
    merchantReference: d.merchantReference,
    orderNumber: d.orderNumber,
    ...present("orderId", d.orderId),
    amountMinor: minorFromStored(d.amountMinor),
    currency: d.currency,
    original: {
      amountMinor: minorFromStored(d.original.amountMinor),
      currency: d.original.currency,
      rate: d.original.rate,
    },
    ...present("description", d.description),
    items: d.items.map((i) => ({
      name: i.name,
      quantity: Number(i.quantity),
      unitPriceMinor: minorFromStored(i.unitPriceMinor),
      ...present("description", i.description),
    })),
    status: d.status,
    buyer: {
      ...present("firstName", d.buyer.firstName),
      ...present("lastName", d.buyer.lastName),
      ...present("email", d.buyer.email),
      ...present("phone", d.buyer.phone),
    },
    ...present("metadataJson", d.metadataJson),
    ...present("returnUrl", d.returnUrl),
    ...present("cancelUrl", d.cancelUrl),
    ...present("webhookUrl", d.webhookUrl),
    maxAttempts: Number(d.maxAttempts),
    checkoutLinks: d.checkoutLinks.map(linkToDocument),
    attempts: d.attempts.map(attemptFromDocument),
    expiresAt: d.expiresAt,
    ...present("completedAt", d.completedAt),
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    version: Number(d.version),
    lastEventSequence: Number(d.sequence ?? 0),
    ...present("linkExpiryDueAt", d.linkExpiryDueAt),
    ...present("reconcileAt", d.reconcileAt),
  };
}

/**
 * The `$set` of a state change decided on `current`: the fields the change names, and the next
 * due time of the session it makes.
 */
export function changesToSet(current: Session, changes: SessionChanges): Partial<SessionDocument> {
  const set: Partial<SessionDocument> = { ...nextDueFields(withChanges(current, changes)) };
  if (changes.status !== undefined) set.status = changes.status;
  if ("completedAt" in changes) set.completedAt = orNull(changes.completedAt);
  if (changes.updatedAt !== undefined) set.updatedAt = changes.updatedAt;
  if (changes.checkoutLinks !== undefined) {
    set.checkoutLinks = changes.checkoutLinks.map(linkToDocument);
    set.checkoutTokens = tokensOf(changes.checkoutLinks);
  }
  if (changes.attempts !== undefined) {
    set.attempts = changes.attempts.map(attemptToDocument);
    set.acquirerOrderIds = acquirerOrderIdsOf(changes.attempts);
  }
  if (changes.lastEventSequence !== undefined) set.sequence = changes.lastEventSequence;
  if (changes.linkExpiryDueAt !== undefined) {
    set.linkExpiryDueAt = changes.linkExpiryDueAt;
  }
  if (changes.reconcileAt !== undefined) {
    set.reconcileAt = changes.reconcileAt;
  }
  return set;
}
