import { type JsonOutput, stringifyWithRaw } from "@gateway/platform";
import type { FastifyReply } from "fastify";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** Sends a JSON body that may splice RawJson (merchant metadata) in verbatim. */
export function sendJson(reply: FastifyReply, status: number, body: JsonOutput): FastifyReply {
  return reply.code(status).type(JSON_CONTENT_TYPE).send(stringifyWithRaw(body));
}
