import { describe, expect, it } from "vitest";
import { type EpgOperation, isCredentialsRefusal, protocolError } from "../src/index.js";

// The protocol errorCode table (epg-errors.ts), operation by operation.

describe("protocol errorCode to gateway reason", () => {
  it.each<[EpgOperation, number, string, string]>([
    ["register", 1, "Order number is duplicated", "CONFLICT"],
    ["register", 3, "Unknown currency", "TERMINAL_REJECTED"],
    ["register", 4, "Amount is invalid", "TERMINAL_REJECTED"],
    ["register", 5, "Wrong value of parameter returnUrl", "TERMINAL_REJECTED"],
    ["register", 7, "System error", "PROCESSOR_UNAVAILABLE"],
    ["register", 13, "Merchant has no privileges", "TERMINAL_REJECTED"],
    ["register", 99, "Something new", "PROCESSOR_UNAVAILABLE"],
    ["status", 1, "[orderId] or [orderNumber] is expected", "NOT_FOUND"],
    ["status", 6, "Order not found", "NOT_FOUND"],
    ["status", 7, "System error", "PROCESSOR_UNAVAILABLE"],
    ["refund", 5, "Invalid amount", "REFUND_FAILED"],
    ["refund", 6, "Order not found", "REFUND_FAILED"],
    ["refund", 7, "Refund amount exceeds the deposited amount", "REFUND_FAILED"],
    ["refund", 7, "System error", "REFUND_FAILED"],
    ["reverse", 6, "Order not found", "NOT_FOUND"],
    ["reverse", 7, "Reversal is impossible. Reason: the payment is already settled", "INVALID_STATE"],
    ["reverse", 5, "[orderId] is empty", "INVALID_STATE"],
  ])("when %s answers errorCode %i (%s), then the reason is %s", (operation, code, message, reason) => {
    const err = protocolError(operation, code, message);
    expect(err.reason).toBe(reason);
    expect(err.metadata).toEqual({
      acquirer_operation: operation,
      acquirer_error_code: String(code),
      acquirer_message: message,
    });
    // Our message is ours: the acquirer's text stays in metadata.
    expect(err.message).not.toContain(message);
  });

  it.each<EpgOperation>(["register", "status", "refund", "reverse"])(
    "when %s is answered 'Access denied', then the terminal is rejected",
    (operation) => {
      expect(protocolError(operation, 5, "Access denied").reason).toBe("TERMINAL_REJECTED");
    },
  );

  it("only errorCode 5 with a credentials message is a credentials refusal", () => {
    expect(isCredentialsRefusal(5, "Access denied")).toBe(true);
    expect(isCredentialsRefusal(5, "Invalid credentials")).toBe(true);
    expect(isCredentialsRefusal(5, "The user must change his password")).toBe(true);
    expect(isCredentialsRefusal(5, "Invalid amount")).toBe(false);
    expect(isCredentialsRefusal(7, "Access denied")).toBe(false);
    expect(isCredentialsRefusal(5, undefined)).toBe(false);
  });

  it("when the acquirer's message is very long, then metadata keeps a bounded part", () => {
    const err = protocolError("refund", 7, "x".repeat(5_000));
    expect(err.metadata.acquirer_message?.length).toBe(500);
  });
});
