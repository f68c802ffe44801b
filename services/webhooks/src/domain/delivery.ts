import type { AccountScope } from "./account-scope.js";

/** docs/api/webhooks.md#the-delivery-record: PENDING while scheduled or in flight, then SUCCEEDED or FAILED. */
export type DeliveryStatus = "PENDING" | "SUCCEEDED" | "FAILED";

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ["PENDING", "SUCCEEDED", "FAILED"];

/**
 * Why an attempt exists: the first send of an event, an automatic retry of a failed attempt,
 * or a resend asked for by an operator (single attempt, never retried automatically).
 */
export type DeliveryTrigger = "initial" | "retry" | "resend";

/** A lease on a PENDING attempt: only the holder of `token` may record its outcome until `until`. */
export interface DeliveryClaim {
  token: string;
  until: Date;
}

/**
 * One delivery attempt of one event (docs/api/webhooks.md#the-delivery-record): every send, retry and resend is its own record,
 * so the history shows each with its figures.
 */
export interface Delivery {
  /** `whd_…` */
  id: string;
  scope: AccountScope;
  sessionId: string;
  /** Event type. */
  event: string;
  /** `evt_…`: X-Service-Webhook-Id, identical on every attempt of the event. */
  eventId: string;
  /** Where it was (or will be) sent; "" when no endpoint could be resolved. */
  url: string;
  /** 1, 2, 3… over every attempt of the event, retries and resends alike. */
  attemptNumber: number;
  /** Position in the automatic retry chain: 1 for the first send (and for a resend), 2… for retries. */
  chainAttempt: number;
  trigger: DeliveryTrigger;
  status: DeliveryStatus;
  httpStatusCode?: number;
  responseTimeMs?: number;
  errorMessage?: string;
  /**
   * On a FAILED attempt: when its retry is scheduled. On a PENDING retry: when it is due.
   * Absent when nothing more will be tried automatically.
   */
  nextRetryAt?: Date;
  createdAt: Date;
  /** When a PENDING attempt may be sent. */
  dueAt: Date;
  /** When the outcome was recorded. */
  completedAt?: Date;
  /** The headers the attempt was sent with (ids, timestamp, signatures: nothing secret). */
  requestHeaders?: Record<string, string>;
  /** The first 1 KiB of the receiver's answer, as text. */
  responseExcerpt?: string;
  /** Present while a dispatcher holds the attempt. */
  claim?: DeliveryClaim;
}

/** What a dispatcher records when an attempt is over. */
export interface DeliveryResult {
  status: "SUCCEEDED" | "FAILED";
  url: string;
  httpStatusCode?: number;
  responseTimeMs?: number;
  errorMessage?: string;
  nextRetryAt?: Date;
  completedAt: Date;
  requestHeaders?: Record<string, string>;
  responseExcerpt?: string;
}
