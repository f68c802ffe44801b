import type { Server } from "node:http";
import { GatewayError } from "@gateway/platform";
import type { FastifyRequest } from "fastify";
import { PROBLEM_CONTENT_TYPE } from "../problem/problem-document.js";

/**
 * Answers Node's HTTP server would write itself, with an empty body, made problem documents.
 * What stays out of reach: requests Node cannot parse at all (createClientErrorHandler writes
 * a problem document to the socket, never a page, as the path is not known), and HTTP/2 or
 * TLS errors before any request exists.
 */

/**
 * HTTP/1.1 requires Host (RFC 9112 3.2). Node's own check (requireHostHeader, turned off on the
 * server) answers a bare 400; this one throws, so the error handler answers a problem document.
 */
export function requireHostHeader(request: FastifyRequest): void {
  if (
    request.raw.httpVersion === "1.1" &&
    (request.headers.host === undefined || request.headers.host === "")
  ) {
    throw new GatewayError("BAD_REQUEST", "HTTP/1.1 requests must carry a Host header.");
  }
}

/**
 * `Expect` other than 100-continue: Node answers 417 with an empty body unless the server
 * listens to checkExpectation; this listener answers the 417 as a problem document. The
 * gateway's catalog has no type for it, so it is RFC 9457's `about:blank` (the title is the
 * status phrase). The request never reaches fastify.
 */
export function answerExpectationsWithProblems(server: Server): void {
  server.on("checkExpectation", (_req, res) => {
    const body = JSON.stringify({
      type: "about:blank",
      title: "Expectation Failed",
      status: 417,
      detail: "Only Expect: 100-continue is supported.",
    });
    res.writeHead(417, {
      "content-type": PROBLEM_CONTENT_TYPE,
      "content-length": Buffer.byteLength(body),
      connection: "close",
    });
    res.end(body);
  });
}
