import type { Socket } from "node:net";
import { buildProblem, PROBLEM_CONTENT_TYPE } from "./problem-document.js";

/**
 * fastify's `clientErrorHandler`: requests Node cannot even parse (broken HTTP, oversized
 * headers, a client that stalls) never reach a route, so the answer is written to the socket
 * here, still as a problem document rather than fastify's default body.
 */
export function createClientErrorHandler(errorsUrl: string) {
  return (err: Error & { code?: string }, socket: Socket): void => {
    if (err.code === "ECONNRESET" || socket.destroyed) return;
    if (socket.writable) {
      const body = JSON.stringify(
        buildProblem(errorsUrl, { reason: "BAD_REQUEST", detail: "The HTTP request could not be parsed." }),
      );
      socket.write(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}
