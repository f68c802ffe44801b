import { GatewayError } from "@gateway/platform";

/**
 * The exact text of each JSON request body, kept beside the parsed value fastify holds in
 * `request.body`, because some members (metadata) go back out byte for byte.
 */
const bodyTexts = new WeakMap<object, string>();

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Parses a request body for `request`: empty (or whitespace-only) text means "no body"; every
 * operation that takes a body takes a JSON object, so anything else is a 400.
 */
export function parseJsonBodyText(request: object, text: string): JsonObject | undefined {
  if (text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new GatewayError("BAD_REQUEST", "The request body is not valid JSON.");
  }
  if (!isJsonObject(value)) throw new GatewayError("BAD_REQUEST", "The request body must be a JSON object.");
  bodyTexts.set(request, text);
  return value;
}

/** The exact text of the request's JSON body (its parsed value is `request.body`). */
export function rawBodyText(request: object): string {
  const text = bodyTexts.get(request);
  if (text === undefined) throw new Error("the request has no JSON body text");
  return text;
}

/** The body of an operation that takes a JSON object; anything else is a 400. */
export function requireJsonObjectBody(body: unknown): { value: JsonObject } {
  if (!isJsonObject(body)) throw new GatewayError("BAD_REQUEST", "The request body must be a JSON object.");
  return { value: body };
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
    throw GatewayError.validation(
      names.map((field) => ({ field, code: "invalid", message: "Unknown field." })),
    );
  }
}
