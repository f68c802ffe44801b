import type { FastifyInstance } from "fastify";

/** Checkout forms carry a token and a language: a few hundred bytes. */
export const FORM_BODY_LIMIT_BYTES = 8 * 1024;

/**
 * In the checkout scope, request bodies are HTML form posts only (the edge's JSON parser is
 * dropped here): anything else is a 415, answered as a page by the scope's error handler.
 */
export function installFormBodyParser(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: FORM_BODY_LIMIT_BYTES },
    (_request, body, done) => {
      done(null, new URLSearchParams(body as string));
    },
  );
}

/** The parsed form of a request, or an empty one when it had no body. */
export function formOf(body: unknown): URLSearchParams {
  return body instanceof URLSearchParams ? body : new URLSearchParams();
}

/** A form field or query parameter as one string (a repeated query parameter counts as absent). */
export function singleValue(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
