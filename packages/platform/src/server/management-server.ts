import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../logger.js";
import { metricsRegistry } from "../metrics.js";

export interface ManagementServerOptions {
  /** Process name for the log line, e.g. "edge" or "gateway" (embedded). */
  name: string;
  /** The interface the process binds (HOST); default "127.0.0.1". */
  host?: string;
  /** MANAGEMENT_PORT; 0 = a free port. */
  port: number;
  logger: Logger;
}

export interface RunningManagementServer {
  port: number;
  /** e.g. "http://127.0.0.1:9460" */
  url: string;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { "content-type": contentType, "cache-control": "no-store" });
  res.end(body);
}

const NOT_FOUND = JSON.stringify({
  type: "about:blank",
  title: "Not Found",
  status: 404,
  detail: "The management listener serves GET /metrics only.",
});

function handle(req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? "").split("?")[0];
  if ((req.method === "GET" || req.method === "HEAD") && path === "/metrics") {
    metricsRegistry.metrics().then(
      (text) => send(res, 200, metricsRegistry.contentType, text),
      () => send(res, 500, "text/plain", "metrics unavailable\n"),
    );
    return;
  }
  send(res, 404, "application/problem+json", NOT_FOUND);
}

/**
 * The management listener: Prometheus `GET /metrics` on its own port (MANAGEMENT_PORT), so
 * metrics are never reachable through the public listener or an Ingress routing it, and a
 * NetworkPolicy can open this port to the scraper alone. One per process: embedded mode, which
 * runs every service in one process, has one for all of them (the registry is process-wide).
 */
export async function startManagementServer(o: ManagementServerOptions): Promise<RunningManagementServer> {
  const host = o.host ?? "127.0.0.1";
  const server = createServer(handle);
  // A scrape is short; idle keep-alive sockets must not hold close() up.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}`;
  o.logger.info({ url }, `${o.name} management listener (GET /metrics)`);
  let closed: Promise<void> | undefined;
  return {
    port,
    url,
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
