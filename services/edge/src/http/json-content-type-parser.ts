import type { FastifyInstance } from "fastify";
import { parseJsonBodyText } from "./json-body.js";

/**
 * Replaces fastify's body parsers with one strict JSON parser. Any other content type on a
 * request with a body is then a 415 (fastify raises FST_ERR_CTP_INVALID_MEDIA_TYPE), and a body
 * over `maxBodyBytes` is a 413 (FST_ERR_CTP_BODY_TOO_LARGE), both mapped to problem documents.
 * Routes needing other body types (HTML forms) register their parser in their own plugin scope.
 */
export function installJsonContentTypeParser(app: FastifyInstance, maxBodyBytes: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: maxBodyBytes }, (_request, body, done) => {
    try {
      done(null, parseJsonBodyText(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}
