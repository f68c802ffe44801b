import { type FieldViolation, GatewayError, VIOLATIONS_OMITTED, ViolationCollector } from "@gateway/platform";
import { Kind, type TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { type ValueError, ValueErrorType } from "@sinclair/typebox/errors";
import type { FastifySchemaCompiler } from "fastify";
import { isJsonObject } from "../http/json-body.js";
import type { AnnotatedSchema } from "./schemas/annotations.js";

type HttpPart = string | undefined;

/**
 * fastify's validator compiler for every route schema: TypeBox's compiled checker, and on a
 * failure the problem documents of docs/api/errors.md instead of fastify's default 400. A body that is not a
 * JSON object is 400 bad-request, as before; member faults are one 422 validation-error with a
 * violation per path (docs/api/errors.md#validation-errors codes; the schemas' `x-` annotations give the messages).
 */
export const schemaValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = TypeCompiler.Compile(schema);
  const annotated = schema as AnnotatedSchema & { "x-no-body"?: boolean };
  return (data: unknown) => {
    if (httpPart === "body") {
      if ((data === undefined || data === null) && annotated["x-no-body"]) return { value: {} };
      if (!isJsonObject(data))
        return { error: new GatewayError("BAD_REQUEST", "The request body must be a JSON object.") };
    }
    const early = new ViolationCollector();
    const value = withoutNullMembers(data, schema, early);
    if (early.empty && check.Check(value)) return { value };
    return { error: validationError(check.Errors(value), schema, httpPart, early) };
  };
};

/**
 * `null` is the same as an absent member (docs/api/README.md), and a list over its maxItems is one
 * violation whose elements are never looked at: done before the checker, along the schema's
 * declared object members only (so metadata, however deep, is not walked). A value with nothing
 * to drop is returned as it is; one with something to drop is copied from its first change, into
 * an object with no prototype, so a member named `__proto__` stays an own (unknown) member.
 */
function withoutNullMembers(value: unknown, schema: TSchema, early: ViolationCollector, path = ""): unknown {
  if (!isJsonObject(value) || schema[Kind] !== "Object" || schema.additionalProperties === true) return value;
  const properties = (schema.properties ?? {}) as Record<string, AnnotatedSchema>;
  const names = Object.keys(value);
  let copy: Record<string, unknown> | undefined;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    const member = value[name];
    const kept = member === null ? DROPPED : keptMember(member, properties, name, path, early);
    if (copy === undefined && kept !== member) copy = copyOfFirst(value, names, i);
    if (copy !== undefined && kept !== DROPPED) copy[name] = kept;
  }
  return copy ?? value;
}

/** Marks a member left out of the value the checker sees. */
const DROPPED = Symbol("dropped");

function keptMember(
  member: unknown,
  properties: Record<string, AnnotatedSchema>,
  name: string,
  path: string,
  early: ViolationCollector,
): unknown {
  const memberSchema = Object.hasOwn(properties, name) ? properties[name] : undefined;
  if (memberSchema === undefined || typeof member !== "object") return member;
  const at = path === "" ? name : `${path}.${name}`;
  if (memberSchema[Kind] !== "Array" || !Array.isArray(member)) {
    return withoutNullMembers(member, memberSchema, early, at);
  }
  const max = memberSchema.maxItems as number | undefined;
  if (max !== undefined && member.length > max) {
    early.add({
      field: at,
      code: "invalid",
      message: memberSchema["x-too-many"] ?? `Must hold at most ${max} elements.`,
    });
    return DROPPED;
  }
  const itemSchema = memberSchema.items as TSchema;
  let copy: unknown[] | undefined;
  for (let i = 0; i < member.length; i++) {
    const element: unknown = member[i];
    const kept = withoutNullMembers(element, itemSchema, early, `${at}[${i}]`);
    if (copy === undefined && kept !== element) copy = member.slice(0, i);
    copy?.push(kept);
  }
  return copy ?? member;
}

/** A copy, with no prototype, of the object's first `count` members. */
function copyOfFirst(
  value: Record<string, unknown>,
  names: string[],
  count: number,
): Record<string, unknown> {
  const copy = Object.create(null) as Record<string, unknown>;
  for (let i = 0; i < count; i++) copy[names[i] as string] = value[names[i] as string];
  return copy;
}

function validationError(
  errors: Iterable<ValueError>,
  root: TSchema,
  httpPart: HttpPart,
  early: ViolationCollector,
): GatewayError {
  const found: Array<{ rank: number[]; violation: FieldViolation }> = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const segments = pointerSegments(error.path);
    const field = fieldPath(segments);
    // One violation per path: a missing member is "required", not also of the wrong type.
    if (seen.has(field)) continue;
    seen.add(field);
    found.push({ rank: rankOf(root, segments), violation: violationFor(error, field, httpPart) });
  }
  // The declared order (then unknown members), as a merchant reads the body.
  found.sort((a, b) => compareRanks(a.rank, b.rank));
  const collector = early;
  for (const { violation } of found) collector.add(violation);
  return new GatewayError("VALIDATION_ERROR", "One or more fields failed validation.", {
    violations: collector.violations,
    metadata: collector.omitted > 0 ? { [VIOLATIONS_OMITTED]: String(collector.omitted) } : {},
  });
}

function violationFor(error: ValueError, field: string, httpPart: HttpPart): FieldViolation {
  const schema = error.schema as AnnotatedSchema;
  if (error.type === ValueErrorType.ObjectRequiredProperty)
    return { field, code: "required", message: "This field is required." };
  if (error.type === ValueErrorType.ObjectAdditionalProperties) {
    const message =
      schema["x-unknown"] ?? (httpPart === "querystring" ? "Unknown query parameter." : "Unknown field.");
    return { field, code: "invalid", message };
  }
  const asNumber = schema["x-invalid-number"];
  if (asNumber && typeof error.value === "number")
    return { field, code: asNumber.code, message: asNumber.message };
  return { field, code: "invalid", message: schema["x-invalid"] ?? defaultMessage(schema) };
}

function defaultMessage(schema: TSchema): string {
  switch (schema[Kind]) {
    case "String":
      return "Must be a string.";
    case "Integer":
      return "Must be an integer.";
    case "Object":
      return "Must be a JSON object.";
    case "Array":
      return "Must be an array.";
    default:
      return "Invalid value.";
  }
}

/** `/items/0/name` → ["items", 0, "name"] (RFC 6901 unescaping). */
function pointerSegments(pointer: string): Array<string | number> {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => (/^(?:0|[1-9][0-9]*)$/.test(s) ? Number(s) : s.replace(/~1/g, "/").replace(/~0/g, "~")));
}

/** ["items", 0, "name"] → `items[0].name`, the paths of docs/api/errors.md#validation-errors. */
function fieldPath(segments: Array<string | number>): string {
  let out = "";
  for (const s of segments) out += typeof s === "number" ? `[${s}]` : out === "" ? s : `.${s}`;
  return out;
}

const UNKNOWN_RANK = Number.MAX_SAFE_INTEGER;

function rankOf(root: TSchema, segments: Array<string | number>): number[] {
  const rank: number[] = [];
  let schema: TSchema | undefined = root;
  for (const s of segments) {
    if (typeof s === "number") {
      rank.push(s);
      schema = schema?.[Kind] === "Array" ? (schema.items as TSchema) : undefined;
    } else {
      const properties = (schema?.properties ?? {}) as Record<string, TSchema>;
      const index = Object.hasOwn(properties, s) ? Object.keys(properties).indexOf(s) : -1;
      rank.push(index < 0 ? UNKNOWN_RANK : index);
      schema = index < 0 ? undefined : properties[s];
    }
  }
  return rank;
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
