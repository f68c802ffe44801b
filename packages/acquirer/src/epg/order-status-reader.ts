import type { AcquirerOrderState, CardSummary, OrderStatus } from "../acquirer-port.js";
import { summarizeMaskedPan } from "../card-brand.js";
import { failureCodeForActionCode } from "./action-codes.js";
import { unreadableAnswerError } from "./epg-errors.js";
import { EPG_ORDER_STATUS } from "./epg-protocol.js";

const STATE_BY_ORDER_STATUS: ReadonlyMap<number, AcquirerOrderState> = new Map<number, AcquirerOrderState>([
  [EPG_ORDER_STATUS.registered, "CREATED"],
  [EPG_ORDER_STATUS.approved, "APPROVED"],
  [EPG_ORDER_STATUS.deposited, "DEPOSITED"],
  [EPG_ORDER_STATUS.reversed, "REVERSED"],
  [EPG_ORDER_STATUS.refunded, "REFUNDED"],
  // The buyer is in the middle of 3-D Secure: still unpaid, like a registered order.
  [EPG_ORDER_STATUS.acsAuthInitiated, "CREATED"],
  [EPG_ORDER_STATUS.declined, "DECLINED"],
]);

/** Minor units from a JSON number or digit string; exact or refused, never rounded. */
function readMinor(value: unknown, field: string): bigint {
  if (value === undefined || value === null || value === "") return 0n;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === "string" && /^\d+$/.test(value)) return BigInt(value);
  throw unreadableAnswerError("status", `bad_${field}`);
}

function readInteger(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  if (typeof value === "string" && /^-?\d+$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

function readObject(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** Brand, last four and country; the masked PAN itself goes no further than this function. */
function readCard(answer: Record<string, unknown>): CardSummary | undefined {
  const cardAuthInfo = readObject(answer.cardAuthInfo);
  const masked = cardAuthInfo.maskedPan ?? cardAuthInfo.pan;
  if (typeof masked !== "string") return undefined;
  const summary = summarizeMaskedPan(masked);
  if (summary === undefined) return undefined;
  const country = readObject(answer.bankInfo).bankCountryCode;
  const card: CardSummary = { brand: summary.brand, lastFour: summary.lastFour };
  if (typeof country === "string" && /^[A-Za-z]{2}$/.test(country)) card.country = country.toUpperCase();
  return card;
}

export interface ReadOrderStatusOptions {
  acquirerOrderId: string;
  now: Date;
  isSettled: (approvedAt: Date, now: Date) => boolean;
}

/**
 * The port's OrderStatus from an accepted getOrderStatusExtended answer. A declined order
 * whose actionCode says the payment page timed out is ABANDONED (nobody paid), not DECLINED.
 * `settled` comes from the authorization time and the acquirer's end-of-day rule: the
 * protocol has no settlement flag, and a wrong guess only costs a refused reversal, which the
 * caller answers with a refund.
 */
export function readOrderStatus(
  answer: Record<string, unknown>,
  options: ReadOrderStatusOptions,
): OrderStatus {
  const orderStatusCode = readInteger(answer.orderStatus);
  const state = orderStatusCode === undefined ? undefined : STATE_BY_ORDER_STATUS.get(orderStatusCode);
  if (orderStatusCode === undefined || state === undefined)
    throw unreadableAnswerError("status", "bad_order_status");

  const actionCode = readInteger(answer.actionCode) ?? 0;
  const failureCode =
    state === "DECLINED" ? (failureCodeForActionCode(actionCode) ?? "card_declined") : undefined;
  const amounts = readObject(answer.paymentAmountInfo);

  const status: OrderStatus = {
    acquirerOrderId: options.acquirerOrderId,
    orderNumber: typeof answer.orderNumber === "string" ? answer.orderNumber : "",
    state: failureCode === "session_timeout" ? "ABANDONED" : state,
    orderStatusCode,
    actionCode,
    actionCodeDescription:
      typeof answer.actionCodeDescription === "string" ? answer.actionCodeDescription : "",
    amountMinor: readMinor(answer.amount, "amount"),
    depositedMinor: readMinor(amounts.depositedAmount, "deposited_amount"),
    refundedMinor: readMinor(amounts.refundedAmount, "refunded_amount"),
    settled: false,
  };
  if (failureCode !== undefined) status.failureCode = failureCode;
  const card = readCard(answer);
  if (card !== undefined) status.card = card;

  const authorizedAt = readInteger(answer.authDateTime);
  const paid = state === "APPROVED" || state === "DEPOSITED" || state === "REFUNDED";
  if (paid && authorizedAt !== undefined && authorizedAt > 0) {
    status.settled = options.isSettled(new Date(authorizedAt), options.now);
  }
  return status;
}
