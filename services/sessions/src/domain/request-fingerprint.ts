import { sha256Hex } from "@gateway/platform";
import { canonicalJson } from "./canonical-json.js";
import type { ValidCreateSession } from "./validation/create-session-input.js";

/** A text member as JSON: absent is null, never "". */
const jsonText = (value: string | undefined): string =>
  value === undefined ? "null" : JSON.stringify(value);

/**
 * The payment-defining fields: a valid create request has them, and so does the session stored
 * for it, unchanged for its whole life (no stored change touches them).
 */
export type FingerprintedFields = Pick<
  ValidCreateSession,
  | "original"
  | "orderId"
  | "description"
  | "items"
  | "buyer"
  | "metadataJson"
  | "returnUrl"
  | "cancelUrl"
  | "webhookUrl"
  | "maxAttempts"
>;

/**
 * sha256 of the payment-defining fields of a valid create request, in a fixed order, so an
 * idempotent repeat can be told apart from a different request reusing the reference. The
 * exchange rate is left out on purpose: a rate changed between two tries of the same request
 * must not turn the retry into a conflict. Absent fields hash as null, never as "". Metadata
 * counts by meaning (canonicalJson): a retry whose JSON was re-serialised, with another key
 * order, white space or number spelling, is the same request; it is still stored and answered
 * byte for byte as first sent. Which fields count: docs/decisions.md. A stored session's is
 * computed from its fields when a repeat arrives, not kept
 * (docs/decisions.md#a-sessions-fingerprint-is-computed-when-a-repeat-arrives).
 *
 * The hashed text is the JSON of `[name, value]` pairs (`[["amount","125500"],...]`), as stored
 * fingerprints were made; it is written as one template rather than built as arrays for
 * JSON.stringify, which took most of a create's fingerprint
 * (docs/decisions.md#request-fingerprints-are-written-as-one-text).
 */
export function requestFingerprint(req: FingerprintedFields): string {
  let items = "";
  for (const item of req.items) {
    items += `${items === "" ? "" : ","}[${JSON.stringify(item.name)},${item.quantity},"${item.unitPriceMinor}",${jsonText(item.description)}]`;
  }
  const metadata = req.metadataJson === undefined ? undefined : canonicalJson(req.metadataJson);
  return sha256Hex(
    `[["amount","${req.original.amountMinor}"],["currency",${JSON.stringify(req.original.currency)}],` +
      `["order_id",${jsonText(req.orderId)}],["description",${jsonText(req.description)}],["items",[${items}]],` +
      `["buyer_first_name",${jsonText(req.buyer.firstName)}],["buyer_last_name",${jsonText(req.buyer.lastName)}],` +
      `["buyer_email",${jsonText(req.buyer.email)}],["buyer_phone",${jsonText(req.buyer.phone)}],` +
      `["metadata",${jsonText(metadata)}],["return_url",${jsonText(req.returnUrl)}],` +
      `["cancel_url",${jsonText(req.cancelUrl)}],["webhook_url",${jsonText(req.webhookUrl)}],` +
      `["max_attempts",${req.maxAttempts}]]`,
  );
}
