import { sha256Hex } from "@gateway/platform";
import { canonicalJson } from "./canonical-json.js";
import type { ValidCreateSession } from "./validation/create-session-input.js";

/**
 * sha256 of the payment-defining fields of a valid create request, in a fixed order, so an
 * idempotent repeat can be told apart from a different request reusing the reference. The
 * exchange rate is left out on purpose: a rate changed between two tries of the same request
 * must not turn the retry into a conflict. Absent fields hash as null, never as "". Metadata
 * counts by meaning (canonicalJson): a retry whose JSON was re-serialised, with another key
 * order, white space or number spelling, is the same request; it is still stored and answered
 * byte for byte as first sent. Which fields count: docs/decisions.md.
 */
export function requestFingerprint(req: ValidCreateSession): string {
  const canonical = [
    ["amount", req.original.amountMinor.toString()],
    ["currency", req.original.currency],
    ["order_id", req.orderId ?? null],
    ["description", req.description ?? null],
    [
      "items",
      req.items.map((item) => [
        item.name,
        item.quantity,
        item.unitPriceMinor.toString(),
        item.description ?? null,
      ]),
    ],
    ["buyer_first_name", req.buyer.firstName ?? null],
    ["buyer_last_name", req.buyer.lastName ?? null],
    ["buyer_email", req.buyer.email ?? null],
    ["buyer_phone", req.buyer.phone ?? null],
    ["metadata", req.metadataJson === undefined ? null : canonicalJson(req.metadataJson)],
    ["return_url", req.returnUrl ?? null],
    ["cancel_url", req.cancelUrl ?? null],
    ["webhook_url", req.webhookUrl ?? null],
    ["max_attempts", req.maxAttempts],
  ];
  return sha256Hex(JSON.stringify(canonical));
}
