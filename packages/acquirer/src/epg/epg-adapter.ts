import { type Clock, type FieldViolation, GatewayError, systemClock } from "@gateway/platform";
import type {
  Acquirer,
  OrderStatus,
  RefundInput,
  RegisteredOrder,
  RegisterOrderInput,
  Terminal,
} from "../acquirer-port.js";
import { DEFAULT_SETTLEMENT_TIME_ZONE, settledAfterLocalMidnight } from "../settlement-day.js";
import { unreadableAnswerError } from "./epg-errors.js";
import { callEpg, type EpgHttpOptions } from "./epg-http-client.js";
import { readOrderStatus } from "./order-status-reader.js";

export interface EpgAcquirerOptions {
  /** Bound on each call, connection to last byte. Default 15 s. */
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
  /** Reads "now" for the settlement rule. */
  clock?: Clock;
  /** Time zone of the acquirer's end-of-day settlement. Default Africa/Tunis. */
  settlementTimeZone?: string;
}

export const DEFAULT_EPG_TIMEOUT_MS = 15_000;

function requireValid(violations: FieldViolation[]): void {
  if (violations.length > 0) throw GatewayError.validation(violations);
}

function checkPositive(field: string, value: bigint): FieldViolation[] {
  return value > 0n
    ? []
    : [{ field, code: "invalid_value", message: `${field} must be a positive number of minor units.` }];
}

function checkPresent(field: string, value: string): FieldViolation[] {
  return value.trim() !== "" ? [] : [{ field, code: "required", message: `${field} is required.` }];
}

function checkRegisterInput(input: RegisterOrderInput): void {
  requireValid([
    ...checkPresent("order_number", input.orderNumber),
    ...checkPositive("amount", input.amountMinor),
    ...(/^\d{3}$/.test(input.currencyNumeric)
      ? []
      : [{ field: "currency", code: "invalid", message: "currency must be an ISO 4217 numeric code." }]),
    ...checkPresent("return_url", input.returnUrl),
    ...checkPresent("fail_url", input.failUrl),
    ...(Number.isSafeInteger(input.sessionTimeoutSecs) && input.sessionTimeoutSecs > 0
      ? []
      : [
          {
            field: "session_timeout_secs",
            code: "invalid_value",
            message: "session_timeout_secs must be a positive whole number of seconds.",
          },
        ]),
  ]);
}

/**
 * The live acquirer adapter: speaks the BPC/RBS-style EPG REST protocol to the terminal's
 * base URL (register.do, getOrderStatusExtended.do, refund.do, reverse.do). It logs nothing
 * and returns only brand, last four and country of a card.
 */
export function createEpgAcquirer(options: EpgAcquirerOptions = {}): Acquirer {
  const http: EpgHttpOptions = {
    timeoutMs: options.timeoutMs ?? DEFAULT_EPG_TIMEOUT_MS,
    fetchImpl: options.fetchImpl ?? globalThis.fetch,
  };
  const clock = options.clock ?? systemClock;
  const timeZone = options.settlementTimeZone ?? DEFAULT_SETTLEMENT_TIME_ZONE;
  const isSettled = (approvedAt: Date, now: Date) => settledAfterLocalMidnight(approvedAt, now, timeZone);

  return {
    async registerOrder(input: RegisterOrderInput): Promise<RegisteredOrder> {
      checkRegisterInput(input);
      const answer = await callEpg(
        "register",
        input.terminal,
        {
          orderNumber: input.orderNumber,
          amount: input.amountMinor.toString(),
          currency: input.currencyNumeric,
          returnUrl: input.returnUrl,
          failUrl: input.failUrl,
          description: input.description,
          sessionTimeoutSecs: String(input.sessionTimeoutSecs),
          language: input.language,
        },
        http,
      );
      const { orderId, formUrl } = answer;
      if (typeof orderId !== "string" || orderId === "")
        throw unreadableAnswerError("register", "no_order_id");
      if (typeof formUrl !== "string" || !/^https?:\/\//i.test(formUrl))
        throw unreadableAnswerError("register", "no_form_url");
      return { acquirerOrderId: orderId, formUrl };
    },

    async getOrderStatus(input: { terminal: Terminal; acquirerOrderId: string }): Promise<OrderStatus> {
      requireValid(checkPresent("acquirer_order_id", input.acquirerOrderId));
      const answer = await callEpg("status", input.terminal, { orderId: input.acquirerOrderId }, http);
      return readOrderStatus(answer, { acquirerOrderId: input.acquirerOrderId, now: clock.now(), isSettled });
    },

    async refund(input: RefundInput): Promise<void> {
      requireValid([
        ...checkPresent("acquirer_order_id", input.acquirerOrderId),
        ...checkPositive("amount", input.amountMinor),
        ...checkPresent("external_refund_id", input.externalRefundId),
      ]);
      await callEpg(
        "refund",
        input.terminal,
        {
          orderId: input.acquirerOrderId,
          amount: input.amountMinor.toString(),
          externalRefundId: input.externalRefundId,
        },
        http,
      );
    },

    async reverse(input: { terminal: Terminal; acquirerOrderId: string }): Promise<void> {
      requireValid(checkPresent("acquirer_order_id", input.acquirerOrderId));
      await callEpg("reverse", input.terminal, { orderId: input.acquirerOrderId }, http);
    },
  };
}
