import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import type { Logger } from "../logger.js";

type Handler = (
  req: http.IncomingMessage | http2.Http2ServerRequest,
  res: http.ServerResponse | http2.Http2ServerResponse,
) => void;

const H2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
/** A client that connects and says nothing is dropped after this long. */
const FIRST_BYTES_TIMEOUT_MS = 30_000;

/**
 * While draining, an idle HTTP/1.1 connection is closed once it has carried no request for this
 * long, not at once. A client may be sending a call on it at the very moment the server closes
 * it, and HTTP/1.1 cannot warn it as HTTP/2's GOAWAY does. The gateway's own callers drop a
 * connection idle for half this time (serviceTransport), so by then they have closed it
 * themselves (docs/decisions.md#calls-between-services-use-a-pool-of-http11-connections).
 */
export const DRAIN_IDLE_H1_MS = 1_000;

type Protocol = "h1" | "h2" | "undecided";

function sniff(buf: Buffer): Protocol {
  const n = Math.min(buf.length, H2_PREFACE.length);
  if (!buf.subarray(0, n).equals(H2_PREFACE.subarray(0, n))) return "h1";
  return buf.length >= H2_PREFACE.length ? "h2" : "undecided";
}

export interface DualProtocolListener {
  /** Resolves with the bound port. */
  listen(host: string, port: number): Promise<number>;
  /** Stops accepting, lets in-flight requests finish within `graceMs`, then destroys sockets. */
  drain(graceMs: number): Promise<void>;
}

/**
 * One TCP port for HTTP/2 cleartext (gRPC, gRPC-Web, Connect) and HTTP/1.1 (Connect unary,
 * probes). Each connection's first bytes are read: the HTTP/2 client preface goes to an
 * http2 server, anything else to an http server; the bytes are put back before handing over.
 */
export function createDualProtocolListener(handler: Handler, logger: Logger): DualProtocolListener {
  /** Every open connection, with the protocol it turned out to speak. */
  const sockets = new Map<net.Socket, Protocol>();
  const h2Sessions = new Set<http2.ServerHttp2Session>();
  const h1InFlight = new Map<net.Socket, number>();
  /** When each HTTP/1.1 connection last finished a request (or was handed over): its idle start. */
  const h1IdleSince = new Map<net.Socket, number>();
  const idleCloseTimers = new Set<NodeJS.Timeout>();
  let draining = false;

  /** Draining: closes an idle HTTP/1.1 connection once it has been idle for DRAIN_IDLE_H1_MS. */
  const closeOnceIdleLongEnough = (socket: net.Socket) => {
    const idleSince = h1IdleSince.get(socket) ?? performance.now();
    const timer = setTimeout(
      () => {
        idleCloseTimers.delete(timer);
        // A request that came meanwhile is answered with `Connection: close`, which ends the connection.
        if (!h1InFlight.has(socket) && h1IdleSince.get(socket) === idleSince) socket.destroy();
      },
      Math.max(0, DRAIN_IDLE_H1_MS - (performance.now() - idleSince)),
    );
    idleCloseTimers.add(timer);
  };

  const h1 = http.createServer((req, res) => {
    const socket = req.socket;
    h1InFlight.set(socket, (h1InFlight.get(socket) ?? 0) + 1);
    // While draining, tell the client not to reuse the connection.
    if (draining) res.shouldKeepAlive = false;
    res.once("close", () => {
      const left = (h1InFlight.get(socket) ?? 1) - 1;
      if (left > 0) h1InFlight.set(socket, left);
      else h1InFlight.delete(socket);
      h1IdleSince.set(socket, performance.now());
      if (draining && left <= 0) socket.destroySoon();
    });
    handler(req, res);
  });
  // Our http server never listens itself, so Node's header/request timers are not armed;
  // an inactivity timeout still frees connections a client abandoned half-way.
  h1.timeout = 300_000;
  h1.on("clientError", (err, socket) => {
    logger.debug({ err }, "bad HTTP/1.1 request");
    socket.destroy();
  });

  const h2 = http2.createServer({}, handler);
  h2.on("session", (session) => {
    h2Sessions.add(session);
    session.once("close", () => h2Sessions.delete(session));
    session.on("error", (err) => logger.debug({ err }, "HTTP/2 session error"));
    if (draining) session.close();
  });

  const tcp = net.createServer((socket) => {
    sockets.set(socket, "undecided");
    socket.once("close", () => sockets.delete(socket));
    socket.on("error", (err) => logger.debug({ err }, "connection error"));
    socket.setTimeout(FIRST_BYTES_TIMEOUT_MS, () => socket.destroy());
    let seen = Buffer.alloc(0);
    socket.once("close", () => h1IdleSince.delete(socket));
    const onData = (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk]);
      const protocol = sniff(seen);
      if (protocol === "undecided") return;
      sockets.set(socket, protocol);
      socket.removeListener("data", onData);
      socket.setTimeout(0);
      socket.pause();
      socket.unshift(seen);
      if (protocol === "h2") {
        // http2 feeds bytes already buffered on the socket to its session itself; resuming
        // here would flow them to no listener and lose the preface.
        h2.emit("connection", socket);
      } else {
        h1IdleSince.set(socket, performance.now());
        h1.emit("connection", socket);
        socket.resume(); // http reads buffered bytes through its 'data' listener
      }
    };
    socket.on("data", onData);
  });

  return {
    listen(host, port) {
      return new Promise((resolve, reject) => {
        tcp.once("error", reject);
        tcp.listen({ host, port }, () => {
          tcp.off("error", reject);
          resolve((tcp.address() as net.AddressInfo).port);
        });
      });
    },
    async drain(graceMs) {
      draining = true;
      const closed = new Promise<void>((resolve) => tcp.close(() => resolve()));
      for (const session of h2Sessions) session.close(); // GOAWAY; open streams may finish
      for (const [socket, protocol] of sockets) {
        if (protocol === "undecided")
          socket.destroy(); // has sent no request yet
        else if (protocol === "h1" && !h1InFlight.has(socket)) closeOnceIdleLongEnough(socket);
      }
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), graceMs);
      });
      const outcome = await Promise.race([closed.then(() => "drained" as const), graceOver]);
      clearTimeout(timer);
      for (const idleClose of idleCloseTimers) clearTimeout(idleClose);
      if (outcome === "timeout") {
        logger.warn({ open: sockets.size }, "drain grace period over, closing remaining connections");
        for (const socket of sockets.keys()) socket.destroy();
        await closed;
      }
    },
  };
}
