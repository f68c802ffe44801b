import { create } from "@bufbuild/protobuf";
import type { FieldViolation } from "@gateway/platform";
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

/** Optional text members of the create body (docs/api/sessions.md#create-a-session) and their proto names. */
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
}

/**
 * Maps the create body to CreateSessionRequest. The edge only checks JSON types, required
 * members and unknown members; the sessions service checks meaning (lengths, formats, amounts,
 * currency) and reports every violation together, the edge's included. Wrongly typed members
 * are left out of the request; `null` is the same as absent. `metadata` travels as the exact
 * JSON text the merchant sent (`rawText` is the whole body's text).
 */
export function mapCreateSessionBody(body: JsonObject, rawText: string, scope: AccountScope): MappedCreateSession {
  const violations: FieldViolation[] = [];
  const request = create(CreateSessionRequestSchema, { scope });

  const reference = member(body, "merchant_reference");
  if (reference === undefined) violations.push(violation.required("merchant_reference"));
  else if (typeof reference === "string") request.merchantReference = reference;
  else violations.push(violation.notString("merchant_reference"));

  const amount = member(body, "amount");
  if (amount === undefined) violations.push(violation.required("amount"));
  else if (typeof amount === "string") request.amount = amount;
  else if (typeof amount === "number") violations.push(violation.amountNotString("amount"));
  else violations.push(violation.invalid("amount", "Must be a decimal string."));

  for (const [field, protoName] of Object.entries(OPTIONAL_TEXT)) {
    const value = member(body, field);
    if (value === undefined) continue;
    if (typeof value === "string") request[protoName] = value;
    else violations.push(violation.notString(field));
  }

  const items = member(body, "items");
  if (items !== undefined) {
    if (Array.isArray(items)) request.items = items.map((item, index) => mapLineItem(item, `items[${index}]`, violations));
    else violations.push(violation.invalid("items", "Must be an array of line items."));
  }

  const metadata = member(body, "metadata");
  if (metadata !== undefined) {
    if (isJsonObject(metadata)) request.metadataJson = rawMember(rawText, "metadata");
    else violations.push(violation.invalid("metadata", "Must be a JSON object."));
  }

  const maxAttempts = member(body, "max_attempts");
  if (maxAttempts !== undefined) {
    if (isInt32(maxAttempts)) request.maxAttempts = maxAttempts;
    else violations.push(violation.invalid("max_attempts", "Must be an integer."));
  }

  for (const field of Object.keys(body)) {
    if (!KNOWN_FIELDS.has(field)) violations.push(violation.unknown(field));
  }

  request.inputViolations = violations.map((v) => create(FieldViolationSchema, v));
  return { request, edgeViolations: violations };
}

/**
 * Items stay at their index even when malformed (an empty placeholder), so that the service's
 * violations for later items keep the right `items[i]` paths.
 */
function mapLineItem(item: unknown, path: string, violations: FieldViolation[]): LineItem {
  const line = create(LineItemSchema);
  if (!isJsonObject(item)) {
    violations.push(violation.invalid(path, "Must be an object with name, quantity and unit_price."));
    return line;
  }
  const name = member(item, "name");
  if (name === undefined) violations.push(violation.required(`${path}.name`));
  else if (typeof name === "string") line.name = name;
  else violations.push(violation.notString(`${path}.name`));

  const quantity = member(item, "quantity");
  if (quantity === undefined) violations.push(violation.required(`${path}.quantity`));
  else if (isInt32(quantity)) line.quantity = quantity;
  else violations.push(violation.invalid(`${path}.quantity`, "Must be an integer."));

  const unitPrice = member(item, "unit_price");
  if (unitPrice === undefined) violations.push(violation.required(`${path}.unit_price`));
  else if (typeof unitPrice === "string") line.unitPrice = unitPrice;
  else violations.push(violation.invalid(`${path}.unit_price`, "Must be a decimal string such as \"4.500\"."));

  const description = member(item, "description");
  if (description !== undefined) {
    if (typeof description === "string") line.description = description;
    else violations.push(violation.notString(`${path}.description`));
  }

  for (const field of Object.keys(item)) {
    if (!ITEM_FIELDS.has(field)) violations.push(violation.unknown(`${path}.${field}`));
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
  const flagged = edge.map((v) => v.field);
  const coveredByEdge = (field: string): boolean =>
    flagged.some((path) => field === path || field.startsWith(`${path}.`) || field.startsWith(`${path}[`));
  const isEdgeFinding = (v: FieldViolation): boolean => edge.some((e) => e.field === v.field && e.code === v.code);
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
