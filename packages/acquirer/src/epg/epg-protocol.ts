// The BPC/RBS-style acquirer REST protocol, as both the adapter and the simulator speak it.
// Requests: POST, application/x-www-form-urlencoded, `userName`/`password` of the terminal,
// amounts in minor units, ISO 4217 numeric currency. Responses: JSON with `errorCode`
// ("0" or absent = accepted) and `errorMessage`.

/** Operation names, relative to the terminal's base URL. */
export const EPG_OPERATIONS = {
  register: "register.do",
  status: "getOrderStatusExtended.do",
  refund: "refund.do",
  reverse: "reverse.do",
} as const;

export type EpgOperation = keyof typeof EPG_OPERATIONS;

/** `orderStatus` of getOrderStatusExtended. */
export const EPG_ORDER_STATUS = {
  registered: 0,
  approved: 1,
  deposited: 2,
  reversed: 3,
  refunded: 4,
  acsAuthInitiated: 5,
  declined: 6,
} as const;

export type EpgOrderStatusCode = (typeof EPG_ORDER_STATUS)[keyof typeof EPG_ORDER_STATUS];

/** `errorCode` values of the protocol (the meaning depends a little on the operation). */
export const EPG_ERROR = {
  ok: 0,
  /** register: order number already used. status: neither orderId nor orderNumber given. */
  duplicateOrNoOrder: 1,
  unknownCurrency: 3,
  /** A required parameter is missing or empty (amount, order number, return URL…). */
  missingParameter: 4,
  /** Access denied (credentials), or a parameter has a wrong value. */
  accessDeniedOrWrongValue: 5,
  unknownOrder: 6,
  /** The order is in the wrong state for the operation, an amount exceeds, or system error. */
  refusedOrSystemError: 7,
} as const;

/** The answer of register.do. */
export interface EpgRegisterResponse {
  errorCode?: string | number;
  errorMessage?: string;
  orderId?: string;
  formUrl?: string;
}

/** The part of getOrderStatusExtended.do the gateway reads. */
export interface EpgOrderStatusResponse {
  errorCode?: string | number;
  errorMessage?: string;
  orderNumber?: string;
  orderStatus?: number;
  actionCode?: number;
  actionCodeDescription?: string;
  amount?: number | string;
  currency?: string;
  /** Milliseconds since the epoch: registration. */
  date?: number;
  /** Milliseconds since the epoch: authorization (absent until the card was authorized). */
  authDateTime?: number;
  cardAuthInfo?: { maskedPan?: string; cardholderName?: string; expiration?: string; approvalCode?: string };
  bankInfo?: { bankCountryCode?: string; bankCountryName?: string; bankName?: string };
  paymentAmountInfo?: {
    paymentState?: string;
    approvedAmount?: number | string;
    depositedAmount?: number | string;
    refundedAmount?: number | string;
  };
}

/** The answer of refund.do and reverse.do: only the error fields. */
export interface EpgPlainResponse {
  errorCode?: string | number;
  errorMessage?: string;
}
