import type { FastifyReply, FastifyRequest } from "fastify";
import { buildProblem, PROBLEM_CONTENT_TYPE, type ProblemInput } from "./problem-document.js";

/** The request path without its query string: the problem's `instance`. */
export function requestPath(request: FastifyRequest): string {
  const url = request.raw.url ?? request.url;
  const queryAt = url.indexOf("?");
  return queryAt === -1 ? url : url.slice(0, queryAt);
}

export function sendProblem(
  reply: FastifyReply,
  errorsUrl: string,
  input: ProblemInput,
  headers: Record<string, string> = {},
): FastifyReply {
  const doc = buildProblem(errorsUrl, { instance: requestPath(reply.request), ...input });
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  // A Buffer, so fastify sends the media type exactly as RFC 9457 registers it (no charset
  // parameter appended; JSON is UTF-8 by definition).
  return reply
    .code(doc.status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(Buffer.from(JSON.stringify(doc), "utf8"));
}
