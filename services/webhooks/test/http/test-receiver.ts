import { Buffer } from "node:buffer";
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as it arrived on the wire. */
  body: Buffer;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, received: ReceivedRequest) => void;

/** A merchant endpoint on 127.0.0.1 that records every connection and request it sees. */
export interface TestReceiver {
  port: number;
  url: string;
  requests: ReceivedRequest[];
  connections: number;
  closedConnections: number;
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<TestReceiver> {
  let handler: Handler = (_req, res) => res.end("ok");
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const received = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      receiver.requests.push(received);
      handler(req, res, received);
    });
  });
  server.on("connection", (socket) => {
    receiver.connections += 1;
    sockets.add(socket);
    socket.on("close", () => {
      receiver.closedConnections += 1;
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: TestReceiver = {
    port,
    url: `http://127.0.0.1:${port}/hooks`,
    requests: [],
    connections: 0,
    closedConnections: 0,
    handle(next) {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

/** A port nothing listens on: bound once, then released. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
