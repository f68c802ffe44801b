import { parseAmount } from "@gateway/money";
import { GatewayError } from "@gateway/platform";
import { type Balance, type RefundType, remainingMinor } from "./refund.js";

/** What the sessions service tells about the session to refund. */
export interface PaidSession {
  /** The session status (CREATED … SUCCEEDED, CANCELED). */
  status: string;
  amountMinor: bigint;
  currency: string;
  /** The acquirer order of the successful attempt; undefined when no attempt succeeded. */
  acquirerOrderId: string | undefined;
  /** Whether the acquirer has settled the payment, when known. */
  settled?: boolean;
  /** How the merchant knows the session; its own webhook URL ("" when the account's applies). */
  merchantReference: string;
  orderNumber: string;
  webhookUrl: string;
}

/** Only a succeeded session with a successful payment can be refunded. */
export function assertRefundable(
  session: PaidSession,
): asserts session is PaidSession & { acquirerOrderId: string } {
  if (session.status !== "SUCCEEDED") {
    throw new GatewayError(
      "INVALID_STATE",
      `Only a succeeded session can be refunded; this one is ${session.status}.`,
      {
        metadata: { status: session.status },
      },
    );
  }
  if (session.acquirerOrderId === undefined || session.acquirerOrderId === "" || session.amountMinor <= 0n) {
    throw new GatewayError("NO_PAYMENT", "The session has no successful payment to refund.");
  }
}

/**
 * Reads a PARTIAL refund's amount with the create endpoint's rules (docs/api/errors.md#validation-errors): a decimal string
 * at the currency's precision, greater than zero. FULL takes no amount.
 */
export function requestedAmountMinor(
  type: RefundType,
  amount: string | undefined,
  currency: string,
): bigint | undefined {
  if (type === "FULL") return undefined;
  if (amount === undefined || amount === "") {
    throw GatewayError.validation([
      { field: "amount", code: "required", message: "amount is required when refund_type is PARTIAL" },
    ]);
  }
  const parsed = parseAmount(amount, currency);
  if (!parsed.ok)
    throw GatewayError.validation([{ field: "amount", code: parsed.code, message: parsed.message }]);
  return parsed.minor;
}

/**
 * How much this refund takes from the balance: FULL takes what is left, PARTIAL its amount,
 * never more than what is left. Applied to the freshest balance at reservation time.
 */
export function amountToTake(requestedMinor: bigint | undefined, balance: Balance): bigint {
  const left = remainingMinor(balance);
  if (left <= 0n) {
    throw new GatewayError("REFUND_FAILED", "The session has nothing left to refund.");
  }
  if (requestedMinor === undefined) return left;
  if (requestedMinor > left) {
    throw new GatewayError("REFUND_FAILED", "The refund amount exceeds the refundable balance.");
  }
  return requestedMinor;
}
