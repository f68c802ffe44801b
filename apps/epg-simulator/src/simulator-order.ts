import type { AcquirerOrderState } from "@gateway/acquirer";
import { EPG_ORDER_STATUS, type EpgOrderStatusCode } from "@gateway/acquirer";

export interface SimulatorRefund {
  externalRefundId?: string;
  amountMinor: bigint;
  at: Date;
}

/**
 * One order in the simulator's book. Card data is limited to what an acquirer returns: the
 * masked PAN (first six, last four), the cardholder name and the issuer country.
 */
export interface SimulatorOrder {
  acquirerOrderId: string;
  /** The terminal (userName) that registered it: orders are only visible to it. */
  terminal: string;
  orderNumber: string;
  amountMinor: bigint;
  currencyNumeric: string;
  returnUrl: string;
  failUrl: string;
  description?: string;
  language?: string;
  formUrl: string;
  createdAt: Date;
  /** The payment page stops taking cards at this instant. */
  expiresAt: Date;
  orderStatus: EpgOrderStatusCode;
  actionCode: number;
  /** When the card was authorized (drives settlement). */
  authorizedAt?: Date;
  /** For the late-approval card: when the pending payment turns into a deposit. */
  lateApprovalAt?: Date;
  /** For the processor-timeout card: status calls hang before answering. */
  statusHangs: boolean;
  maskedPan?: string;
  cardholderName?: string;
  bankCountryCode?: string;
  approvedMinor: bigint;
  depositedMinor: bigint;
  refundedMinor: bigint;
  refunds: SimulatorRefund[];
}

/** The state the EPG adapter would report for the order (see order-status-reader.ts). */
export function portStateOf(order: SimulatorOrder, sessionExpiredActionCode: number): AcquirerOrderState {
  switch (order.orderStatus) {
    case EPG_ORDER_STATUS.registered:
    case EPG_ORDER_STATUS.acsAuthInitiated:
      return "CREATED";
    case EPG_ORDER_STATUS.approved:
      return "APPROVED";
    case EPG_ORDER_STATUS.deposited:
      return "DEPOSITED";
    case EPG_ORDER_STATUS.reversed:
      return "REVERSED";
    case EPG_ORDER_STATUS.refunded:
      return "REFUNDED";
    case EPG_ORDER_STATUS.declined:
      return order.actionCode === sessionExpiredActionCode ? "ABANDONED" : "DECLINED";
  }
}

/** `paymentAmountInfo.paymentState` of the protocol. */
export function paymentStateOf(order: SimulatorOrder): string {
  switch (order.orderStatus) {
    case EPG_ORDER_STATUS.registered:
      return "CREATED";
    case EPG_ORDER_STATUS.acsAuthInitiated:
      return "STARTED";
    case EPG_ORDER_STATUS.approved:
      return "APPROVED";
    case EPG_ORDER_STATUS.deposited:
      return "DEPOSITED";
    case EPG_ORDER_STATUS.reversed:
      return "REVERSED";
    case EPG_ORDER_STATUS.refunded:
      return "REFUNDED";
    case EPG_ORDER_STATUS.declined:
      return "DECLINED";
  }
}
