import { GatewayError } from "@gateway/platform";

/**
 * What the edge's JSON content-type parser leaves in `request.body`: the parsed value for
 * validation and the exact text, because some members (metadata) go back out byte for byte.
 * `request.body` is `undefined` when the request had no body at all.
 */
export class JsonBody {
  constructor(
    readonly value: unknown,
    readonly text: string,
  ) {}
}

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Parses a request body; empty (or whitespace-only) text means "no body". */
export function parseJsonBodyText(text: string): JsonBody | undefined {
  if (text.trim() === "") return undefined;
  try {
    return new JsonBody(JSON.parse(text) as unknown, text);
  } catch {
    throw new GatewayError("BAD_REQUEST", "The request body is not valid JSON.");
  }
}

/** The body of an operation that takes a JSON object; anything else is a 400. */
export function requireJsonObjectBody(body: unknown): { value: JsonObject; text: string } {
  if (!(body instanceof JsonBody) || !isJsonObject(body.value)) {
    throw new GatewayError("BAD_REQUEST", "The request body must be a JSON object.");
  }
  return { value: body.value, text: body.text };
}

/**
 * The body of an operation that takes none (cancel, verify): no body or `{}` is accepted; a
 * non-object is a 400 and members are unknown fields (422), so a typo is never silently ignored.
 */
export function requireNoMembers(body: unknown): void {
  if (body === undefined || body === null) return;
  const { value } = requireJsonObjectBody(body);
  const names = Object.keys(value);
  if (names.length > 0) {
    throw GatewayError.validation(names.map((field) => ({ field, code: "invalid", message: "Unknown field." })));
  }
}
