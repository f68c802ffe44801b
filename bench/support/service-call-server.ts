// The server side of bench/service-call-bench.ts, run as its own process: SessionService's
// CreateSession answering one fixed session (bench/support/service-call-messages.ts), served
//   SERVE=bare-h2, bare-h1: by connect-node alone (connectNodeAdapter, no interceptors) on a
//                  node:http2 or node:http server, the least a Connect server does;
//   SERVE=gateway: as every gateway service serves (startServiceServer: the standard interceptors
//                  and service authentication), checking tokens with GATEWAY_SERVICE_AUTH_KEYS.
// Env: PORT, SERVE, GATEWAY_SERVICE_AUTH_KEYS (gateway). Ready when a call is answered.
import http from "node:http";
import http2 from "node:http2";
import type { ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { createLogger, parseServiceAuthKeys, startServiceServer, watchParentPipe } from "@gateway/platform";
import { SessionService } from "@gateway/proto";
import { createSessionAnswer } from "./service-call-messages.js";

const port = Number(process.env.PORT);
const answer = createSessionAnswer(Date.now());
const routes = (router: ConnectRouter) => router.service(SessionService, { createSession: () => answer });

async function serveBare(httpVersion: "h1" | "h2"): Promise<() => Promise<void>> {
  const rpc = connectNodeAdapter({ routes });
  const server = httpVersion === "h2" ? http2.createServer(rpc) : http.createServer(rpc);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

async function serveAsGateway(): Promise<() => Promise<void>> {
  const keys = parseServiceAuthKeys("sessions")(process.env.GATEWAY_SERVICE_AUTH_KEYS ?? "");
  const logger = createLogger({ service: "sessions", level: "warn" });
  const server = await startServiceServer({
    name: "sessions",
    port,
    routes,
    logger,
    auth: { target: "sessions", keys },
  });
  return () => server.close(1_000);
}

const serve = process.env.SERVE;
if (serve !== "gateway" && serve !== "bare-h2" && serve !== "bare-h1")
  throw new Error(`SERVE must be gateway, bare-h2 or bare-h1, got ${serve}`);
const close =
  serve === "gateway" ? await serveAsGateway() : await serveBare(serve === "bare-h2" ? "h2" : "h1");
let closing = false;
const shutdown = async () => {
  if (closing) return;
  closing = true;
  await close();
  process.exit(0);
};
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
watchParentPipe(() => void shutdown());
