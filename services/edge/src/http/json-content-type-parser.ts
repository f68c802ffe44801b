import { GatewayError } from "@gateway/platform";
import type { FastifyInstance } from "fastify";
import { parseJsonBodyText } from "./json-body.js";

// JSON text is UTF-8 (RFC 8259 8.1). A lenient decoder would turn bad bytes into U+FFFD, and two
// different references would then read the same; a byte-order mark stays and fails the parse.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Replaces fastify's body parsers with one strict JSON parser. Any other content type on a
 * request with a body is then a 415 (fastify raises FST_ERR_CTP_INVALID_MEDIA_TYPE), and a body
 * over `maxBodyBytes` is a 413 (FST_ERR_CTP_BODY_TOO_LARGE), both mapped to problem documents.
 * Routes needing other body types (HTML forms) register their parser in their own plugin scope.
 */
export function installJsonContentTypeParser(app: FastifyInstance, maxBodyBytes: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    "application/json",
    { parseAs: "buffer", bodyLimit: maxBodyBytes },
    (request, body, done) => {
      try {
        let text: string;
        try {
          text = utf8.decode(body as Buffer);
        } catch {
          throw new GatewayError("BAD_REQUEST", "The request body is not valid UTF-8.");
        }
        done(null, parseJsonBodyText(request, text));
      } catch (err) {
        done(err as Error, undefined);
      }
    },
  );
}
