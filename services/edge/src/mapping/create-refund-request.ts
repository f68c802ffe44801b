import { create } from "@bufbuild/protobuf";
import { GatewayError, VIOLATIONS_OMITTED, ViolationCollector } from "@gateway/platform";
import { CreateRefundRequestSchema, FieldViolationSchema, RefundType, type AccountScope, type CreateRefundRequest } from "@gateway/proto";
import { isJsonObject, type JsonObject } from "../http/json-body.js";
import { extractTopLevelRawValues } from "../json/raw-json-fields.js";
import { violation } from "./field-violations.js";

const KNOWN_FIELDS = new Set(["reason", "refund_type", "amount", "metadata"]);
const REFUND_TYPES: Record<string, RefundType> = { FULL: RefundType.FULL, PARTIAL: RefundType.PARTIAL };

/**
 * Maps the refund body (spec 4.5) to CreateRefundRequest. Like the create-session mapping, the
 * edge only checks JSON types and unknown members; what it finds travels as input_violations and
 * the refunds service reports them with its own (refund_type missing, amount format or absence
 * for PARTIAL) in one 422. `null` is the same as absent; `metadata` goes as the merchant's exact
 * JSON text (`rawText` is the whole body's text).
 */
export function mapCreateRefundBody(body: JsonObject, rawText: string, scope: AccountScope, sessionId: string): CreateRefundRequest {
  const violations = new ViolationCollector();
  const request = create(CreateRefundRequestSchema, { scope, sessionId });

  const refundType = member(body, "refund_type");
  if (refundType !== undefined) {
    const type = typeof refundType === "string" && Object.hasOwn(REFUND_TYPES, refundType) ? REFUND_TYPES[refundType] : undefined;
    if (type === undefined) violations.add(violation.invalid("refund_type", 'Must be "FULL" or "PARTIAL".'));
    else request.refundType = type;
  }

  const amount = member(body, "amount");
  if (amount !== undefined) {
    if (typeof amount === "string") request.amount = amount;
    else if (typeof amount === "number") violations.add(violation.amountNotString("amount"));
    else violations.add(violation.invalid("amount", "Must be a decimal string."));
  }

  const reason = member(body, "reason");
  if (reason !== undefined) {
    if (typeof reason === "string") request.reason = reason;
    else violations.add(violation.notString("reason"));
  }

  const metadata = member(body, "metadata");
  if (metadata !== undefined) {
    if (isJsonObject(metadata)) request.metadataJson = rawMember(rawText, "metadata");
    else violations.add(violation.invalid("metadata", "Must be a JSON object."));
  }

  for (const field of Object.keys(body)) {
    if (!KNOWN_FIELDS.has(field)) violations.add(violation.unknown(field));
  }
  // More faults than one answer reports: answered here, the service could only add to the rest.
  if (violations.omitted > 0) {
    throw new GatewayError("VALIDATION_ERROR", "One or more fields failed validation.", {
      violations: violations.violations,
      metadata: { [VIOLATIONS_OMITTED]: String(violations.omitted) },
    });
  }
  request.inputViolations = violations.violations.map((v) => create(FieldViolationSchema, v));
  return request;
}

/** An own member's value; `null` counts as absent. */
function member(object: JsonObject, name: string): unknown {
  if (!Object.hasOwn(object, name)) return undefined;
  const value = object[name];
  return value === null ? undefined : value;
}

function rawMember(rawText: string, name: string): string {
  const raw = extractTopLevelRawValues(rawText).get(name);
  // JSON.parse accepted the text and produced this member, so the scanner must find it too.
  if (raw === undefined) throw new Error(`raw JSON scanner disagrees with JSON.parse on member '${name}'`);
  return raw;
}
