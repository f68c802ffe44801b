// A keep-alive HTTP/1.1 client over plain sockets, for the open loops that measure latency
// (./http-load.ts). The load generator stands for clients on other machines, yet it shares the
// bench machine's cores with the servers it measures: node:http's client spent about 98 µs of
// CPU per request there, and the servers waited for a core behind it. This client writes each
// request in one call and reads only what a response needs: its status, its framing and its
// body, for about half that CPU
// (docs/decisions.md#open-loops-send-through-a-lean-http-client).
import { connect, type Socket } from "node:net";
import type { HttpAnswer, HttpSender } from "./http-load.js";

/** Where a response's head ends. */
const HEADER_END = Buffer.from("\r\n\r\n");
/** A response head larger than this is refused: a bench target never sends one. */
const MAX_HEAD_BYTES = 64 * 1024;

/**
 * A connection idle longer than this is closed rather than reused. A server closes a kept-alive
 * connection once it has been idle for its own timeout (Node's default is 5 s, fastify's 72 s),
 * and a request written as the server closes it is reset. Bounding reuse below every such timeout,
 * as undici does with the same 4 s, means the client never writes on a connection the server may
 * be closing (docs/decisions.md#the-lean-client-does-not-reuse-a-connection-idle-over-4-s).
 */
export const DEFAULT_MAX_IDLE_MS = 4_000;

interface Pending {
  request: string;
  resolve(answer: HttpAnswer): void;
  reject(err: Error): void;
}

/**
 * One keep-alive connection pool to one server: at most `maxSockets` open, the rest queued. It
 * reads bodies framed by content-length or chunked encoding, and refuses anything else as a
 * malformed answer.
 */
export class LeanHttpClient implements HttpSender {
  private readonly host: string;
  private readonly port: number;
  /** Free connections, in the order they were freed: the most recent last, reused first. */
  private readonly idle: LeanConnection[] = [];
  private readonly queue: Pending[] = [];
  private open = 0;
  private closed = false;

  constructor(
    baseUrl: string,
    private readonly maxSockets = 256,
    private readonly maxIdleMs = DEFAULT_MAX_IDLE_MS,
  ) {
    const url = new URL(baseUrl);
    if (url.protocol !== "http:") throw new Error(`the lean client speaks plain HTTP, got ${baseUrl}`);
    this.host = url.hostname;
    this.port = Number(url.port || 80);
  }

  send(
    method: "GET" | "POST",
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<HttpAnswer> {
    if (this.closed) return Promise.reject(new Error("the client is closed"));
    const request = serializeRequest(method, path, `${this.host}:${this.port}`, headers, body);
    return new Promise<HttpAnswer>((resolve, reject) => {
      this.dispatch({ request, resolve, reject });
    });
  }

  close(): void {
    this.closed = true;
    for (const conn of this.idle.splice(0)) conn.destroy();
    for (const waiting of this.queue.splice(0)) waiting.reject(new Error("the client is closed"));
  }

  private dispatch(pending: Pending): void {
    const conn = this.takeIdle();
    if (conn) {
      conn.exchange(pending);
    } else if (this.open < this.maxSockets) {
      this.open++;
      new LeanConnection(this.host, this.port, {
        free: (c) => this.release(c),
        gone: (c) => this.forget(c),
      }).exchange(pending);
    } else {
      this.queue.push(pending);
    }
  }

  /**
   * The most recently freed connection, unless it has been idle longer than `maxIdleMs`: then it
   * and every connection freed before it are closed, and there is none to reuse.
   */
  private takeIdle(): LeanConnection | undefined {
    const conn = this.idle.pop();
    if (conn === undefined || performance.now() - conn.freedAt <= this.maxIdleMs) return conn;
    for (const stale of this.idle.splice(0)) stale.destroy();
    conn.destroy();
    return undefined;
  }

  /** A connection finished its exchange and can carry another. */
  private release(conn: LeanConnection): void {
    const next = this.queue.shift();
    if (next) conn.exchange(next);
    else if (this.closed) conn.destroy();
    else {
      conn.freedAt = performance.now();
      this.idle.push(conn);
    }
  }

  /** A connection closed: it no longer counts, and a queued request may open another. */
  private forget(conn: LeanConnection): void {
    this.open--;
    const at = this.idle.indexOf(conn);
    if (at >= 0) this.idle.splice(at, 1);
    const next = this.queue.shift();
    if (next) this.dispatch(next);
  }
}

function serializeRequest(
  method: string,
  path: string,
  host: string,
  headers: Record<string, string>,
  body: string | undefined,
): string {
  let head = `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  if (body !== undefined) head += `content-length: ${Buffer.byteLength(body)}\r\n`;
  return `${head}\r\n${body ?? ""}`;
}

/** How a response's body ends: after a length, or with chunked framing's last chunk. */
type BodyFraming = { kind: "length"; bytes: number } | { kind: "chunked" };

/** One socket carrying one exchange at a time. */
class LeanConnection {
  /** When the pool last put this connection on its idle list (performance.now()). */
  freedAt = 0;
  private readonly socket: Socket;
  private pending: Pending | undefined;
  private sentAt = 0;
  private ttfbMs = 0;
  /** What has arrived of the current answer, in one buffer. */
  private received: Buffer | undefined;
  private head: { status: number; bodyStart: number; framing: BodyFraming; keepAlive: boolean } | undefined;

  constructor(
    host: string,
    port: number,
    private readonly pool: { free(c: LeanConnection): void; gone(c: LeanConnection): void },
  ) {
    this.socket = connect({ host, port, noDelay: true });
    this.socket.on("data", (chunk: Buffer) => this.onData(chunk));
    this.socket.on("error", (err) => this.fail(err));
    this.socket.on("close", () => {
      this.fail(new Error("the server closed the connection before answering"));
      this.pool.gone(this);
    });
  }

  exchange(pending: Pending): void {
    this.pending = pending;
    this.received = undefined;
    this.head = undefined;
    this.ttfbMs = 0;
    this.sentAt = performance.now();
    this.socket.write(pending.request);
  }

  destroy(): void {
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    if (!this.pending) {
      this.socket.destroy(); // bytes nobody asked for: drop the connection
      return;
    }
    if (!this.received) this.ttfbMs = performance.now() - this.sentAt;
    const data = this.received ? Buffer.concat([this.received, chunk]) : chunk;
    this.received = data;
    try {
      this.head ??= parseHead(data);
      if (!this.head) return;
      const body = completeBody(data, this.head.bodyStart, this.head.framing);
      if (body === undefined) return;
      const pending = this.pending;
      this.pending = undefined;
      pending.resolve({
        status: this.head.status,
        body,
        ttfbMs: this.ttfbMs,
        totalMs: performance.now() - this.sentAt,
      });
      if (this.head.keepAlive) this.pool.free(this);
      else this.socket.destroy();
    } catch (err) {
      this.fail(err as Error);
      this.socket.destroy();
    }
  }

  private fail(err: Error): void {
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(err);
  }
}

/** The status and framing once the whole head has arrived; undefined before that. */
function parseHead(data: Buffer): LeanConnection["head"] {
  const end = data.indexOf(HEADER_END);
  if (end < 0) {
    if (data.length > MAX_HEAD_BYTES) throw new Error(`a response head over ${MAX_HEAD_BYTES} bytes`);
    return undefined;
  }
  const lines = data.toString("latin1", 0, end).split("\r\n");
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? "");
  if (!status) throw new Error(`not an HTTP/1.1 status line: ${JSON.stringify(lines[0]?.slice(0, 80))}`);
  let length: number | undefined;
  let chunked = false;
  let keepAlive = true;
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line
      .slice(colon + 1)
      .trim()
      .toLowerCase();
    if (name === "content-length") length = Number(value);
    else if (name === "transfer-encoding") chunked = value.split(",").some((v) => v.trim() === "chunked");
    else if (name === "connection") keepAlive = value !== "close";
  }
  const framing: BodyFraming = chunked ? { kind: "chunked" } : { kind: "length", bytes: length ?? 0 };
  if (framing.kind === "length" && !(Number.isSafeInteger(framing.bytes) && framing.bytes >= 0))
    throw new Error(`a response with an invalid content-length: ${length}`);
  return { status: Number(status[1]), bodyStart: end + HEADER_END.length, framing, keepAlive };
}

/** The body as text once all of it has arrived; undefined before that. */
function completeBody(data: Buffer, start: number, framing: BodyFraming): string | undefined {
  if (framing.kind === "length") {
    if (data.length < start + framing.bytes) return undefined;
    if (data.length > start + framing.bytes) throw new Error("bytes after the response's body");
    return data.toString("utf8", start, start + framing.bytes);
  }
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(data.toString("latin1", at, lineEnd), 16);
    if (!(size >= 0)) throw new Error("a chunk without a valid size");
    const chunkEnd = lineEnd + 2 + size;
    if (data.length < chunkEnd + 2) return undefined;
    if (size === 0) {
      // The last chunk; no trailers are sent by a bench target, so the body ends with CRLF.
      if (data.length > chunkEnd + 2) throw new Error("bytes after the response's last chunk");
      return Buffer.concat(parts).toString("utf8");
    }
    parts.push(data.subarray(lineEnd + 2, chunkEnd));
    at = chunkEnd + 2;
  }
}
