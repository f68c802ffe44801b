import { GatewayError } from "@gateway/platform";
import type { FastifyReply, FastifyRequest } from "fastify";
import { GENERIC_DETAILS } from "../problem/error-to-problem.js";

/** A percent-encoded NUL (U+0000) anywhere in the request target. */
export const NUL_IN_URL = /%00/i;

/**
 * The answer to a URL holding a NUL: nothing is named by one, so an API path is not found (a
 * problem document; the checkout and the dashboard answer with their own not-found page), and
 * an API filter holding one is a validation error on that parameter
 * (docs/decisions.md#a-nul-in-the-url-finds-nothing).
 */
export function answerNulInUrl(request: FastifyRequest, reply: FastifyReply): void {
  const [path = "", query = ""] = request.url.split("?", 2);
  const api = path.startsWith("/api/") || path.startsWith("/admin/");
  const fields = [...new URLSearchParams(query)]
    .filter(([name, value]) => name.includes("\u0000") || value.includes("\u0000"))
    .map(([name]) => name.replaceAll("\u0000", "\\u0000"));
  if (!api) {
    reply.callNotFound();
    return;
  }
  if (NUL_IN_URL.test(path) || fields.length === 0)
    throw new GatewayError("NOT_FOUND", GENERIC_DETAILS.NOT_FOUND!);
  throw GatewayError.validation(
    [...new Set(fields)].map((field) => ({
      field,
      code: "invalid",
      message: `${field} must not contain control characters.`,
    })),
  );
}
