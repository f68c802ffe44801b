import { create } from "@bufbuild/protobuf";
import { MAX_LINE_ITEMS, MAX_METADATA_BYTES, ViolationCollector, type FieldViolation } from "@gateway/platform";
import {
  CreateSessionRequestSchema,
  FieldViolationSchema,
  LineItemSchema,
  type AccountScope,
  type CreateSessionRequest,
  type LineItem,
} from "@gateway/proto";
import { isJsonObject, type JsonObject } from "../http/json-body.js";
import { extractTopLevelRawValues } from "../json/raw-json-fields.js";
import { isInt32, violation } from "./field-violations.js";

/** Optional text members of the create body (API-DECISIONS "Create body") and their proto names. */
const OPTIONAL_TEXT = {
  currency: "currency",
  order_id: "orderId",
  description: "description",
  buyer_first_name: "buyerFirstName",
  buyer_last_name: "buyerLastName",
  buyer_email: "buyerEmail",
  buyer_phone: "buyerPhone",
  return_url: "returnUrl",
  cancel_url: "cancelUrl",
  webhook_url: "webhookUrl",
} as const;

const KNOWN_FIELDS = new Set(["merchant_reference", "amount", "items", "metadata", "max_attempts", ...Object.keys(OPTIONAL_TEXT)]);
const ITEM_FIELDS = new Set(["name", "quantity", "unit_price", "description"]);

export interface MappedCreateSession {
  request: CreateSessionRequest;
  /** What the edge found (also sent as input_violations); see mergeValidationViolations. */
  edgeViolations: FieldViolation[];
  /** Violations past the cap, only counted: when there are any, the service is not asked. */
  edgeOmitted: number;
}

/**
 * Maps the create body to CreateSessionRequest. The edge only checks JSON types, required
 * members and unknown members; the sessions service checks meaning (lengths, formats, amounts,
 * currency) and reports every violation together, the edge's included. Wrongly typed members
 * are left out of the request; `null` is the same as absent. `metadata` travels as the exact
 * JSON text the merchant sent (`rawText` is the whole body's text).
 */
export function mapCreateSessionBody(body: JsonObject, rawText: string, scope: AccountScope): MappedCreateSession {
  const violations = new ViolationCollector();
  const request = create(CreateSessionRequestSchema, { scope });

  const reference = member(body, "merchant_reference");
  if (reference === undefined) violations.add(violation.required("merchant_reference"));
  else if (typeof reference === "string") request.merchantReference = reference;
  else violations.add(violation.notString("merchant_reference"));

  const amount = member(body, "amount");
  if (amount === undefined) violations.add(violation.required("amount"));
  else if (typeof amount === "string") request.amount = amount;
  else if (typeof amount === "number") violations.add(violation.amountNotString("amount"));
  else violations.add(violation.invalid("amount", "Must be a decimal string."));

  for (const [field, protoName] of Object.entries(OPTIONAL_TEXT)) {
    const value = member(body, field);
    if (value === undefined) continue;
    if (typeof value === "string") request[protoName] = value;
    else violations.add(violation.notString(field));
  }

  const items = member(body, "items");
  if (items !== undefined) {
    // The length first: a list over the limit is one violation, whatever its elements hold.
    if (Array.isArray(items) && items.length > MAX_LINE_ITEMS) {
      violations.add(violation.invalid("items", `items must hold at most ${MAX_LINE_ITEMS} line items.`));
    } else if (Array.isArray(items)) request.items = items.map((item, index) => mapLineItem(item, `items[${index}]`, violations));
    else violations.add(violation.invalid("items", "Must be an array of line items."));
  }

  const metadata = member(body, "metadata");
  if (metadata !== undefined) {
    if (isJsonObject(metadata)) {
      const raw = rawMember(rawText, "metadata");
      if (Buffer.byteLength(raw, "utf8") > MAX_METADATA_BYTES) {
        violations.add(violation.invalid("metadata", `metadata must be at most ${MAX_METADATA_BYTES} bytes of JSON.`));
      } else request.metadataJson = raw;
    } else violations.add(violation.invalid("metadata", "Must be a JSON object."));
  }

  const maxAttempts = member(body, "max_attempts");
  if (maxAttempts !== undefined) {
    if (isInt32(maxAttempts)) request.maxAttempts = maxAttempts;
    else violations.add(violation.invalid("max_attempts", "Must be an integer."));
  }

  for (const field of Object.keys(body)) {
    if (!KNOWN_FIELDS.has(field)) violations.add(violation.unknown(field));
  }

  request.inputViolations = violations.violations.map((v) => create(FieldViolationSchema, v));
  return { request, edgeViolations: violations.violations, edgeOmitted: violations.omitted };
}

/**
 * Items stay at their index even when malformed (an empty placeholder), so that the service's
 * violations for later items keep the right `items[i]` paths.
 */
function mapLineItem(item: unknown, path: string, violations: ViolationCollector): LineItem {
  const line = create(LineItemSchema);
  if (!isJsonObject(item)) {
    violations.add(violation.invalid(path, "Must be an object with name, quantity and unit_price."));
    return line;
  }
  const name = member(item, "name");
  if (name === undefined) violations.add(violation.required(`${path}.name`));
  else if (typeof name === "string") line.name = name;
  else violations.add(violation.notString(`${path}.name`));

  const quantity = member(item, "quantity");
  if (quantity === undefined) violations.add(violation.required(`${path}.quantity`));
  else if (isInt32(quantity)) line.quantity = quantity;
  else violations.add(violation.invalid(`${path}.quantity`, "Must be an integer."));

  const unitPrice = member(item, "unit_price");
  if (unitPrice === undefined) violations.add(violation.required(`${path}.unit_price`));
  else if (typeof unitPrice === "string") line.unitPrice = unitPrice;
  else violations.add(violation.invalid(`${path}.unit_price`, "Must be a decimal string such as \"4.500\"."));

  const description = member(item, "description");
  if (description !== undefined) {
    if (typeof description === "string") line.description = description;
    else violations.add(violation.notString(`${path}.description`));
  }

  for (const field of Object.keys(item)) {
    if (!ITEM_FIELDS.has(field)) violations.add(violation.unknown(`${path}.${field}`));
  }
  return line;
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

/**
 * The violations to show for a failed create. The service reports everything (the edge's
 * input_violations included), but it also sees the placeholders the edge sent for wrongly typed
 * members (an empty amount, an empty item), so its own findings under a path the edge already
 * flagged are dropped: the edge's finding is the accurate one there. Exact duplicates go too.
 */
export function mergeValidationViolations(edge: FieldViolation[], service: FieldViolation[]): FieldViolation[] {
  // Linear in the number of violations: sets, and each path's own prefixes (`items[3].name`
  // is covered by `items[3]` and by `items`).
  const flagged = new Set(edge.map((v) => v.field));
  const coveredByEdge = (field: string): boolean => {
    if (flagged.has(field)) return true;
    for (let i = 0; i < field.length; i++) {
      if ((field[i] === "." || field[i] === "[") && flagged.has(field.slice(0, i))) return true;
    }
    return false;
  };
  const edgeFindings = new Set(edge.map((e) => `${e.field}\u0000${e.code}`));
  const isEdgeFinding = (v: FieldViolation): boolean => edgeFindings.has(`${v.field}\u0000${v.code}`);
  const merged: FieldViolation[] = [];
  const seen = new Set<string>();
  const add = (v: FieldViolation): void => {
    const key = `${v.field}\u0000${v.code}`;
    if (seen.has(key)) return;
    seen.add(key);
    merged.push({ field: v.field, code: v.code, message: v.message });
  };
  for (const v of service) if (!coveredByEdge(v.field) || isEdgeFinding(v)) add(v);
  for (const v of edge) add(v);
  return merged;
}
