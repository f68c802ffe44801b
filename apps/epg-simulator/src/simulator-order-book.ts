import { randomUUID } from "node:crypto";
import type { AcquirerOrderState } from "@gateway/acquirer";
import { describeActionCode, EPG_ACTION, EPG_ERROR, EPG_ORDER_STATUS } from "@gateway/acquirer";
import type { Clock } from "@gateway/platform";
import { maskCardNumber, type ValidCard } from "./card-input.js";
import { currencyByNumeric } from "./currency-by-numeric.js";
import { paymentStateOf, portStateOf, type SimulatorOrder } from "./simulator-order.js";
import { processingFor } from "./test-cards.js";

/** A JSON protocol answer (errorCode "0" when accepted). */
export type ProtocolAnswer = Record<string, unknown>;

export type NotificationOperation = "deposited" | "declinedByTimeout" | "reversed" | "refunded";

/** A BPC-style callback: `status` 1 = the operation succeeded, 0 = it failed. */
export interface SimulatorNotification {
  acquirerOrderId: string;
  orderNumber: string;
  operation: NotificationOperation;
  status: 0 | 1;
}

export interface OrderBookRules {
  clock: Clock;
  /** Upper bound of an order's payment window (register's sessionTimeoutSecs may shorten it). */
  orderTimeoutMs: number;
  lateApprovalDelayMs: number;
  settlementCutoff: (approvedAt: Date, now: Date) => boolean;
}

export interface LedgerEntry {
  acquirerOrderId: string;
  orderNumber: string;
  state: AcquirerOrderState;
  orderStatus: number;
  amountMinor: bigint;
  depositedMinor: bigint;
  refundedMinor: bigint;
  refunds: Array<{ externalRefundId: string; amountMinor: bigint }>;
}

export type PaymentResult =
  | { kind: "paid"; redirectTo: string }
  | { kind: "declined"; redirectTo: string }
  | { kind: "not_payable"; order: SimulatorOrder };

const MAX_ORDER_NUMBER = 32;
const MAX_DESCRIPTION = 512;
const MAX_EXTERNAL_REFUND_ID = 64;

function ok(fields: ProtocolAnswer = {}): ProtocolAnswer {
  return { errorCode: "0", errorMessage: "Success", ...fields };
}

function refused(code: number, message: string): ProtocolAnswer {
  return { errorCode: String(code), errorMessage: message };
}

/** A positive whole number of minor units the JSON answers can carry exactly. */
function readAmount(text: string | null): bigint | undefined {
  if (text === null || !/^[1-9]\d{0,15}$/.test(text)) return undefined;
  const value = BigInt(text);
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? value : undefined;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function withOrderId(url: string, acquirerOrderId: string): string {
  const target = new URL(url);
  target.searchParams.set("orderId", acquirerOrderId);
  return target.toString();
}

/**
 * The simulator's acquirer: orders, payments, refunds and reversals with the protocol's rules.
 * Time-driven changes (payment window expiry, late approval) are applied on every read from
 * the clock, so a ManualClock moves them as well as real time does.
 */
export class SimulatorOrderBook {
  private readonly orders = new Map<string, SimulatorOrder>();
  /** `${terminal}\n${orderNumber}` -> acquirerOrderId: order numbers are unique per terminal. */
  private readonly byOrderNumber = new Map<string, string>();
  private pending: SimulatorNotification[] = [];

  constructor(private readonly rules: OrderBookRules) {}

  register(
    terminal: string,
    params: URLSearchParams,
    formUrlFor: (acquirerOrderId: string) => string,
  ): ProtocolAnswer {
    const orderNumber = (params.get("orderNumber") ?? "").trim();
    if (orderNumber === "") return refused(EPG_ERROR.missingParameter, "Order number is empty");
    if (orderNumber.length > MAX_ORDER_NUMBER)
      return refused(EPG_ERROR.accessDeniedOrWrongValue, "Order number is too long");
    const amountMinor = readAmount(params.get("amount"));
    if (amountMinor === undefined)
      return refused(
        EPG_ERROR.missingParameter,
        "Amount is invalid: a positive whole number of minor units is expected",
      );
    const currencyNumeric = params.get("currency") ?? "788";
    if (!/^\d{3}$/.test(currencyNumeric) || currencyByNumeric(currencyNumeric) === undefined) {
      return refused(EPG_ERROR.unknownCurrency, "Unknown currency");
    }
    const returnUrl = params.get("returnUrl") ?? "";
    if (returnUrl === "") return refused(EPG_ERROR.missingParameter, "Return URL is empty");
    if (!isHttpUrl(returnUrl)) return refused(EPG_ERROR.accessDeniedOrWrongValue, "Return URL is invalid");
    const failUrl = params.get("failUrl") || returnUrl;
    if (!isHttpUrl(failUrl)) return refused(EPG_ERROR.accessDeniedOrWrongValue, "Fail URL is invalid");
    const description = params.get("description") ?? undefined;
    if (description !== undefined && description.length > MAX_DESCRIPTION)
      return refused(EPG_ERROR.accessDeniedOrWrongValue, "Description is too long");
    const language = params.get("language") || undefined;
    if (language !== undefined && !/^[a-z]{2}$/.test(language))
      return refused(EPG_ERROR.accessDeniedOrWrongValue, "Language is invalid");
    const sessionTimeoutText = params.get("sessionTimeoutSecs");
    let windowMs = this.rules.orderTimeoutMs;
    if (sessionTimeoutText !== null && sessionTimeoutText !== "") {
      if (!/^[1-9]\d{0,8}$/.test(sessionTimeoutText))
        return refused(EPG_ERROR.accessDeniedOrWrongValue, "sessionTimeoutSecs is invalid");
      windowMs = Math.min(windowMs, Number(sessionTimeoutText) * 1000);
    }

    const key = `${terminal}\n${orderNumber}`;
    if (this.byOrderNumber.has(key)) {
      return refused(
        EPG_ERROR.duplicateOrNoOrder,
        "Order number is duplicated, order with given order number is processed already",
      );
    }

    const now = this.rules.clock.now();
    const acquirerOrderId = randomUUID();
    const order: SimulatorOrder = {
      acquirerOrderId,
      terminal,
      orderNumber,
      amountMinor,
      currencyNumeric,
      returnUrl,
      failUrl,
      formUrl: formUrlFor(acquirerOrderId),
      createdAt: now,
      expiresAt: new Date(now.getTime() + windowMs),
      orderStatus: EPG_ORDER_STATUS.registered,
      actionCode: EPG_ACTION.noPaymentAttempt,
      statusHangs: false,
      approvedMinor: 0n,
      depositedMinor: 0n,
      refundedMinor: 0n,
      refunds: [],
    };
    if (description !== undefined && description !== "") order.description = description;
    if (language !== undefined) order.language = language;
    this.orders.set(acquirerOrderId, order);
    this.byOrderNumber.set(key, acquirerOrderId);
    return { orderId: acquirerOrderId, formUrl: order.formUrl };
  }

  /** getOrderStatusExtended; `hangs` tells the transport to hold the answer (timeout card). */
  status(terminal: string, params: URLSearchParams): { answer: ProtocolAnswer; hangs: boolean } {
    const orderId = params.get("orderId");
    const orderNumber = params.get("orderNumber");
    let order: SimulatorOrder | undefined;
    if (orderId) order = this.ownOrder(terminal, orderId);
    else if (orderNumber)
      order = this.ownOrder(terminal, this.byOrderNumber.get(`${terminal}\n${orderNumber}`) ?? "");
    else
      return {
        answer: refused(EPG_ERROR.duplicateOrNoOrder, "[orderId] or [orderNumber] is expected"),
        hangs: false,
      };
    if (order === undefined)
      return { answer: refused(EPG_ERROR.unknownOrder, "Order not found"), hangs: false };
    return { answer: this.describe(order), hangs: order.statusHangs };
  }

  refund(terminal: string, params: URLSearchParams): ProtocolAnswer {
    const order = this.ownOrder(terminal, params.get("orderId") ?? "");
    if (order === undefined) return refused(EPG_ERROR.unknownOrder, "Order not found");
    const amountMinor = readAmount(params.get("amount"));
    if (amountMinor === undefined) return refused(EPG_ERROR.accessDeniedOrWrongValue, "Invalid amount");
    const externalRefundId = params.get("externalRefundId") || undefined;
    if (externalRefundId !== undefined && externalRefundId.length > MAX_EXTERNAL_REFUND_ID) {
      return refused(EPG_ERROR.accessDeniedOrWrongValue, "externalRefundId is too long");
    }

    if (externalRefundId !== undefined) {
      const earlier = order.refunds.find((r) => r.externalRefundId === externalRefundId);
      // Same id, same amount: the refund already happened; answer as the first time did.
      if (earlier !== undefined && earlier.amountMinor === amountMinor) return ok();
      if (earlier !== undefined)
        return refused(
          EPG_ERROR.refusedOrSystemError,
          "externalRefundId was already used for a different amount",
        );
    }
    if (order.orderStatus !== EPG_ORDER_STATUS.deposited && order.orderStatus !== EPG_ORDER_STATUS.refunded) {
      return refused(EPG_ERROR.refusedOrSystemError, "Payment must be in a deposited state to be refunded");
    }
    if (amountMinor > order.depositedMinor - order.refundedMinor) {
      return refused(EPG_ERROR.refusedOrSystemError, "Refund amount exceeds the deposited amount");
    }

    const refund = { amountMinor, at: this.rules.clock.now() };
    order.refunds.push(externalRefundId === undefined ? refund : { ...refund, externalRefundId });
    order.refundedMinor += amountMinor;
    order.orderStatus = EPG_ORDER_STATUS.refunded;
    this.notify(order, "refunded", 1);
    return ok();
  }

  reverse(terminal: string, params: URLSearchParams): ProtocolAnswer {
    const order = this.ownOrder(terminal, params.get("orderId") ?? "");
    if (order === undefined) return refused(EPG_ERROR.unknownOrder, "Order not found");
    const now = this.rules.clock.now();
    const reversible =
      order.orderStatus === EPG_ORDER_STATUS.approved || order.orderStatus === EPG_ORDER_STATUS.deposited;
    if (!reversible) {
      const why =
        order.orderStatus === EPG_ORDER_STATUS.reversed
          ? "the order is already reversed"
          : "the order is not paid or has refunds";
      return refused(EPG_ERROR.refusedOrSystemError, `Reversal is impossible. Reason: ${why}`);
    }
    if (order.authorizedAt !== undefined && this.rules.settlementCutoff(order.authorizedAt, now)) {
      return refused(
        EPG_ERROR.refusedOrSystemError,
        "Reversal is impossible. Reason: the payment is already settled",
      );
    }
    order.orderStatus = EPG_ORDER_STATUS.reversed;
    order.approvedMinor = 0n;
    order.depositedMinor = 0n;
    this.notify(order, "reversed", 1);
    return ok();
  }

  /** The order behind a card page, with time-driven changes applied; undefined if unknown. */
  find(acquirerOrderId: string): SimulatorOrder | undefined {
    const order = this.orders.get(acquirerOrderId);
    if (order !== undefined) this.refresh(order);
    return order;
  }

  /** The buyer submitted a valid card on the payment page. */
  pay(acquirerOrderId: string, card: ValidCard): PaymentResult | undefined {
    const order = this.find(acquirerOrderId);
    if (order === undefined) return undefined;
    if (order.orderStatus !== EPG_ORDER_STATUS.registered) return { kind: "not_payable", order };

    const now = this.rules.clock.now();
    const processing = processingFor(card.cardNumber);
    order.maskedPan = maskCardNumber(card.cardNumber);
    order.cardholderName = card.cardholderName;
    order.bankCountryCode = processing.country;

    switch (processing.outcome.kind) {
      case "approve":
        this.deposit(order, now);
        return { kind: "paid", redirectTo: withOrderId(order.returnUrl, order.acquirerOrderId) };
      case "late_approval":
        order.orderStatus = EPG_ORDER_STATUS.acsAuthInitiated;
        order.actionCode = EPG_ACTION.approved;
        order.lateApprovalAt = new Date(now.getTime() + this.rules.lateApprovalDelayMs);
        return { kind: "paid", redirectTo: withOrderId(order.returnUrl, order.acquirerOrderId) };
      case "processor_timeout":
        order.statusHangs = true;
        this.decline(order, EPG_ACTION.processingTimeout);
        return { kind: "declined", redirectTo: withOrderId(order.failUrl, order.acquirerOrderId) };
      case "decline":
        this.decline(order, processing.outcome.actionCode);
        return { kind: "declined", redirectTo: withOrderId(order.failUrl, order.acquirerOrderId) };
    }
  }

  /** Applies due time-driven changes to every order (for callbacks while nobody asks). */
  refreshAll(): void {
    for (const order of this.orders.values()) this.refresh(order);
  }

  takeNotifications(): SimulatorNotification[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  ledger(): LedgerEntry[] {
    this.refreshAll();
    return [...this.orders.values()].map((order) => ({
      acquirerOrderId: order.acquirerOrderId,
      orderNumber: order.orderNumber,
      state: portStateOf(order, EPG_ACTION.sessionExpired),
      orderStatus: order.orderStatus,
      amountMinor: order.amountMinor,
      depositedMinor: order.depositedMinor,
      refundedMinor: order.refundedMinor,
      refunds: order.refunds.map((r) => ({
        externalRefundId: r.externalRefundId ?? "",
        amountMinor: r.amountMinor,
      })),
    }));
  }

  private ownOrder(terminal: string, acquirerOrderId: string): SimulatorOrder | undefined {
    const order = this.find(acquirerOrderId);
    return order !== undefined && order.terminal === terminal ? order : undefined;
  }

  private refresh(order: SimulatorOrder): void {
    const now = this.rules.clock.now();
    if (order.orderStatus === EPG_ORDER_STATUS.registered && now >= order.expiresAt) {
      order.orderStatus = EPG_ORDER_STATUS.declined;
      order.actionCode = EPG_ACTION.sessionExpired;
      this.notify(order, "declinedByTimeout", 1);
    }
    if (
      order.orderStatus === EPG_ORDER_STATUS.acsAuthInitiated &&
      order.lateApprovalAt !== undefined &&
      now >= order.lateApprovalAt
    ) {
      this.deposit(order, order.lateApprovalAt);
    }
  }

  /** One-phase payment: authorized and deposited at once, as e-commerce terminals do here. */
  private deposit(order: SimulatorOrder, at: Date): void {
    order.orderStatus = EPG_ORDER_STATUS.deposited;
    order.actionCode = EPG_ACTION.approved;
    order.authorizedAt = at;
    order.approvedMinor = order.amountMinor;
    order.depositedMinor = order.amountMinor;
    this.notify(order, "deposited", 1);
  }

  private decline(order: SimulatorOrder, actionCode: number): void {
    order.orderStatus = EPG_ORDER_STATUS.declined;
    order.actionCode = actionCode;
    this.notify(order, "deposited", 0);
  }

  private notify(order: SimulatorOrder, operation: NotificationOperation, status: 0 | 1): void {
    this.pending.push({
      acquirerOrderId: order.acquirerOrderId,
      orderNumber: order.orderNumber,
      operation,
      status,
    });
  }

  /** The getOrderStatusExtended answer: protocol field names, amounts as JSON numbers. */
  private describe(order: SimulatorOrder): ProtocolAnswer {
    const answer: ProtocolAnswer = ok({
      orderNumber: order.orderNumber,
      orderStatus: order.orderStatus,
      actionCode: order.actionCode,
      actionCodeDescription: describeActionCode(order.actionCode),
      amount: Number(order.amountMinor),
      currency: order.currencyNumeric,
      date: order.createdAt.getTime(),
      paymentAmountInfo: {
        paymentState: paymentStateOf(order),
        approvedAmount: Number(order.approvedMinor),
        depositedAmount: Number(order.depositedMinor),
        refundedAmount: Number(order.refundedMinor),
      },
    });
    if (order.description !== undefined) answer.orderDescription = order.description;
    if (order.authorizedAt !== undefined) answer.authDateTime = order.authorizedAt.getTime();
    if (order.maskedPan !== undefined) {
      answer.cardAuthInfo = { maskedPan: order.maskedPan, cardholderName: order.cardholderName ?? "" };
    }
    if (order.bankCountryCode !== undefined) answer.bankInfo = { bankCountryCode: order.bankCountryCode };
    return answer;
  }
}
