import { minorFromStored } from "@gateway/money";
import type { Settlement } from "../../app/ports.js";
import type { FinalRefundStatus, Refund, RefundStatus } from "../../domain/refund.js";
import type { RefundEventType, RefundOutboxEvent } from "../../domain/refund-events.js";

/** An outbox entry as stored: the payload as base64 text (a plain string stores alike everywhere). */
export interface OutboxDocument {
  eventId: string;
  type: RefundEventType;
  occurredAt: Date;
  /** The protobuf RefundEvent, base64. */
  payload: string;
  publishedAt: Date | null;
}

/** A refund as stored: amounts as Int64, the scope flattened for the indexes, its event outbox. */
export interface RefundDocument {
  id: string;
  sessionId: string;
  merchantId: string;
  livemode: boolean;
  type: Refund["type"];
  amountMinor: bigint;
  currency: string;
  reason: string;
  metadataJson: string;
  status: RefundStatus;
  automated: boolean;
  acquirerErrorMessage: string;
  externalRefundId: string;
  method: Refund["method"];
  resolutionNote: string | null;
  /** Absent on refunds stored before refund events existed: read as "". */
  sessionMerchantReference?: string;
  sessionOrderNumber?: string;
  sessionWebhookUrl?: string;
  createdAt: Date;
  updatedAt: Date;
  outbox?: OutboxDocument[];
  /** How many outbox entries wait for the relay. */
  outboxPending?: number;
  /** True while `outboxPending` is above 0: what the relay looks for (platform's outbox-flag). */
  outboxUnpublished?: boolean;
  /** Bumped by every outbox write, so marking an entry published is a compare-and-set. */
  outboxRevision?: number;
}

/**
 * The settlement that won for a refund (one per refund: unique refundId), with its event. It is
 * inserted before it is written onto the refund, so a stop in between leaves it to be finished
 * by the next caller, never a second, different outcome.
 */
export interface SettlementDocument {
  refundId: string;
  status: FinalRefundStatus;
  automated: boolean | null;
  acquirerErrorMessage: string | null;
  method: Refund["method"] | null;
  resolutionNote: string | null;
  updatedAt: Date;
  event: Omit<OutboxDocument, "publishedAt">;
  createdAt: Date;
}

export function toDocument(r: Refund): RefundDocument {
  return {
    id: r.id,
    sessionId: r.sessionId,
    merchantId: r.scope.merchantId,
    livemode: r.scope.livemode,
    type: r.type,
    amountMinor: r.amountMinor,
    currency: r.currency,
    reason: r.reason,
    metadataJson: r.metadataJson,
    status: r.status,
    automated: r.automated,
    acquirerErrorMessage: r.acquirerErrorMessage,
    externalRefundId: r.externalRefundId,
    method: r.method,
    resolutionNote: r.resolutionNote ?? null,
    sessionMerchantReference: r.sessionMerchantReference,
    sessionOrderNumber: r.sessionOrderNumber,
    sessionWebhookUrl: r.sessionWebhookUrl,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    outbox: [],
    outboxPending: 0,
    outboxUnpublished: false,
    outboxRevision: 0,
  };
}

export function fromDocument(d: RefundDocument): Refund {
  return {
    id: d.id,
    sessionId: d.sessionId,
    scope: { merchantId: d.merchantId, livemode: d.livemode },
    type: d.type,
    amountMinor: minorFromStored(d.amountMinor),
    currency: d.currency,
    reason: d.reason,
    metadataJson: d.metadataJson,
    status: d.status,
    automated: d.automated,
    acquirerErrorMessage: d.acquirerErrorMessage,
    externalRefundId: d.externalRefundId,
    method: d.method,
    ...(d.resolutionNote !== null ? { resolutionNote: d.resolutionNote } : {}),
    sessionMerchantReference: d.sessionMerchantReference ?? "",
    sessionOrderNumber: d.sessionOrderNumber ?? "",
    sessionWebhookUrl: d.sessionWebhookUrl ?? "",
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}

export function eventToDocument(e: RefundOutboxEvent): Omit<OutboxDocument, "publishedAt"> {
  return {
    eventId: e.eventId,
    type: e.type,
    occurredAt: e.occurredAt,
    payload: Buffer.from(e.payload).toString("base64"),
  };
}

export function eventFromDocument(d: Omit<OutboxDocument, "publishedAt">): RefundOutboxEvent {
  return {
    eventId: d.eventId,
    type: d.type,
    occurredAt: d.occurredAt,
    payload: new Uint8Array(Buffer.from(d.payload, "base64")),
  };
}

export function settlementToDocument(refundId: string, s: Settlement, now: Date): SettlementDocument {
  return {
    refundId,
    status: s.status,
    automated: s.automated ?? null,
    acquirerErrorMessage: s.acquirerErrorMessage ?? null,
    method: s.method ?? null,
    resolutionNote: s.resolutionNote ?? null,
    updatedAt: s.updatedAt,
    event: eventToDocument(s.event),
    createdAt: now,
  };
}

/** The refund fields a settlement sets (the ones it leaves alone are null in its document). */
export function settlementChanges(s: SettlementDocument): Partial<RefundDocument> {
  const set: Partial<RefundDocument> = { status: s.status, updatedAt: s.updatedAt };
  if (s.automated !== null) set.automated = s.automated;
  if (s.acquirerErrorMessage !== null) set.acquirerErrorMessage = s.acquirerErrorMessage;
  if (s.method !== null) set.method = s.method;
  if (s.resolutionNote !== null) set.resolutionNote = s.resolutionNote;
  return set;
}
