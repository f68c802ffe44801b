import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import type { ReadinessReport } from "./readiness.js";

type Request = IncomingMessage | Http2ServerRequest;
type Response = ServerResponse | Http2ServerResponse;

function send(res: Response, status: number, contentType: string, body: string): void {
  res.writeHead(status, { "content-type": contentType, "cache-control": "no-store" });
  res.end(body);
}

/**
 * Answers the probe endpoints (liveness, readiness) on the RPC port (Prometheus metrics are on
 * the management listener, management-server.ts), over HTTP/1.1 and HTTP/2 alike. Returns false for any other request.
 */
export function handleOpsRequest(
  req: Request,
  res: Response,
  readiness: () => Promise<ReadinessReport>,
): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const path = (req.url ?? "").split("?")[0];
  switch (path) {
    case "/healthz":
      send(res, 200, "application/json", JSON.stringify({ status: "ok" }));
      return true;
    case "/readyz":
      readiness().then(
        ({ ready, failed }) =>
          ready
            ? send(res, 200, "application/json", JSON.stringify({ status: "ok" }))
            : send(res, 503, "application/json", JSON.stringify({ status: "unavailable", failed })),
        () => send(res, 503, "application/json", JSON.stringify({ status: "unavailable", failed: [] })),
      );
      return true;
    default:
      return false;
  }
}
