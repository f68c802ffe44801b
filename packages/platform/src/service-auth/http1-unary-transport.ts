import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { type Agent, request as httpRequest, type OutgoingHttpHeaders } from "node:http";
import {
  type DescMethodUnary,
  type DescService,
  fromBinary,
  type MessageShape,
  toBinary,
} from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type Interceptor,
  type StreamRequest,
  type StreamResponse,
  type Transport,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import {
  codeFromHttpStatus,
  contentTypeUnaryProto,
  errorFromJsonBytes,
  headerProtocolVersion,
  headerTimeout,
  parseContentType,
  protocolVersion,
} from "@connectrpc/connect/protocol-connect";
import { callSignal, mayAbortBeforeAnswer } from "../server/call-signal.js";
import { runClientUnaryCall, type UnaryFn } from "../server/client-unary-call.js";

/** How the Connect protocol carries a unary call's trailers: as headers with this prefix. */
const TRAILER_PREFIX = "trailer-";

/** Node's errors that mean the service could not be reached or let the connection go. */
const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

type AnyFn = (req: UnaryRequest | StreamRequest) => Promise<UnaryResponse | StreamResponse>;

export interface Http1UnaryTransportOptions {
  /** `http://host:port`, with an optional path prefix. */
  baseUrl: string;
  /** The pool of keep-alive connections every call goes through. */
  agent: Agent;
  /** Client interceptors, the first one outermost, as Connect's transports run them. */
  interceptors: Interceptor[];
  /** The deadline of a call that names none; none when undefined. */
  defaultTimeoutMs?: number;
  /** The largest response body read; a larger one fails the call as RESOURCE_EXHAUSTED. */
  readMaxBytes: number;
  /** Where streaming calls go: this transport speaks unary calls only. */
  streaming: Transport;
}

/**
 * A response's headers, split into Connect's header and trailer only when someone reads them:
 * the callers between our services read neither. They are getters on the prototype, so an
 * interceptor that copies a response with `{ ...res }` must name them.
 */
class UnaryHttpResponse<O extends MessageShape<never>> {
  readonly stream = false;
  #header: Headers | undefined;
  #trailer: Headers | undefined;
  constructor(
    readonly service: DescService,
    readonly method: DescMethodUnary,
    readonly message: O,
    private readonly raw: IncomingHttpHeaders,
  ) {}
  get header(): Headers {
    if (!this.#header) this.split();
    return this.#header as Headers;
  }
  get trailer(): Headers {
    if (!this.#trailer) this.split();
    return this.#trailer as Headers;
  }
  private split(): void {
    this.#header = new Headers();
    this.#trailer = new Headers();
    demuxHeaders(this.raw, this.#header, this.#trailer);
  }
}

/** Appends each of a response's headers to `header`, or, if it is a trailer, unprefixed to `trailer`. */
function demuxHeaders(raw: IncomingHttpHeaders, header: Headers, trailer: Headers): void {
  for (const [name, value] of Object.entries(raw)) {
    for (const v of Array.isArray(value) ? value : [value ?? ""]) {
      if (name.startsWith(TRAILER_PREFIX)) trailer.append(name.slice(TRAILER_PREFIX.length), v);
      else header.append(name, v);
    }
  }
}

/** Every header of a response, trailers included, as a ConnectError's metadata. */
function metadataOf(raw: IncomingHttpHeaders): Headers {
  const metadata = new Headers();
  demuxHeaders(raw, metadata, metadata);
  return metadata;
}

/** A failure of the connection or the socket, as the Connect code a caller can act on. */
function fromNodeError(err: unknown): ConnectError {
  if (err instanceof ConnectError) return err;
  const code = (err as { code?: unknown } | undefined)?.code;
  return ConnectError.from(
    err,
    typeof code === "string" && UNREACHABLE.has(code) ? Code.Unavailable : Code.Internal,
  );
}

/** The answer of a finished exchange: the message, or the error the service sent or caused. */
function readAnswer(req: UnaryRequest, status: number, raw: IncomingHttpHeaders, body: Buffer) {
  const contentType = raw["content-type"];
  const parsed = parseContentType(contentType ?? null);
  if (status !== 200) {
    // As Connect's transport: only a unary JSON body carries a Connect error.
    const fromStatus = new ConnectError(`HTTP ${status}`, codeFromHttpStatus(status), metadataOf(raw));
    if (parsed === undefined || parsed.binary) throw fromStatus;
    throw errorFromJsonBytes(body, metadataOf(raw), fromStatus);
  }
  if (parsed === undefined || !parsed.binary || parsed.stream) {
    throw new ConnectError(`unsupported content type ${contentType}`, Code.Internal, metadataOf(raw));
  }
  let message: MessageShape<never>;
  try {
    message = fromBinary(req.method.output, body) as never;
  } catch (err) {
    throw new ConnectError("the response is not a valid message", Code.Internal, undefined, undefined, err);
  }
  return new UnaryHttpResponse(req.service, req.method, message, raw);
}

/**
 * One unary call on the wire: a POST with the encoded request, the whole response read, then the
 * answer. It ends at most once, by the answer, by the deadline, by the caller's signal or by a
 * failure of the connection; on every path but the answer the request is destroyed, which closes
 * its connection rather than return it to the pool half read.
 */
class UnaryExchange {
  private done = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly watched: boolean;
  private readonly request;

  constructor(
    private readonly req: UnaryRequest,
    url: URL,
    agent: Agent,
    private readonly readMaxBytes: number,
    private readonly resolve: (res: UnaryResponse) => void,
    private readonly reject: (err: ConnectError) => void,
  ) {
    const body = toBinary(req.method.input, req.message);
    const headers: OutgoingHttpHeaders = { "content-length": body.byteLength };
    req.header.forEach((value, name) => {
      headers[name] = value;
    });
    const timeoutMs = Number(req.header.get(headerTimeout) ?? Number.NaN);
    if (timeoutMs > 0) {
      this.timer = setTimeout(
        () => this.fail(new ConnectError("the operation timed out", Code.DeadlineExceeded)),
        timeoutMs,
      );
    }
    this.watched = mayAbortBeforeAnswer(req.signal);
    if (this.watched) req.signal.addEventListener("abort", this, { once: true });
    this.request = httpRequest(url, { agent, method: "POST", headers });
    this.request.on("error", (err) => this.fail(fromNodeError(err)));
    this.request.on("response", (res) => this.read(res));
    this.request.end(body);
  }

  /** The caller's signal aborted (an EventListener object: no closure per call). */
  handleEvent(): void {
    this.fail(ConnectError.from(this.req.signal.reason, Code.Canceled));
  }

  private read(res: IncomingMessage): void {
    res.on("data", (chunk: Buffer) => {
      this.size += chunk.byteLength;
      if (this.size > this.readMaxBytes) {
        this.fail(
          new ConnectError(`the response exceeds ${this.readMaxBytes} bytes`, Code.ResourceExhausted),
        );
      } else this.chunks.push(chunk);
    });
    res.on("error", (err) => this.fail(fromNodeError(err)));
    res.on("end", () => {
      if (this.finish()) {
        try {
          this.resolve(
            readAnswer(this.req, res.statusCode ?? 0, res.headers, Buffer.concat(this.chunks, this.size)),
          );
        } catch (err) {
          this.reject(ConnectError.from(err));
        }
      }
    });
    // A connection closed before the response's end: the service went away mid-answer. Every
    // response closes, after its end too, so the error is built only when nothing has ended the
    // exchange. Building one captures a stack: under load, that was the largest JavaScript self
    // time in the edge's CPU profile.
    res.on("close", () => {
      if (!this.done)
        this.fail(new ConnectError("the connection closed before the answer", Code.Unavailable));
    });
  }

  /** Marks the exchange over; false when it already was. */
  private finish(): boolean {
    if (this.done) return false;
    this.done = true;
    clearTimeout(this.timer);
    if (this.watched) this.req.signal.removeEventListener("abort", this);
    return true;
  }

  private fail(err: ConnectError): void {
    if (!this.finish()) return;
    this.request.destroy();
    this.reject(err);
  }
}

/** The innermost step of the interceptor chain: the call itself. */
function sendUnary(url: (method: DescMethodUnary) => URL, o: Http1UnaryTransportOptions): AnyFn {
  return (req) => {
    if (req.stream)
      return Promise.reject(new ConnectError("streaming calls take the streaming transport", Code.Internal));
    return new Promise<UnaryResponse>((resolve, reject) => {
      if (req.signal.aborted) return reject(ConnectError.from(req.signal.reason, Code.Canceled));
      new UnaryExchange(req, url(req.method), o.agent, o.readMaxBytes, resolve, reject);
    });
  };
}

/**
 * A Connect transport for the Connect protocol's unary calls in binary over `node:http`, with
 * the same interceptors, deadlines, cancellation, headers and errors as Connect's own transport.
 *
 * Why not Connect's transport: under load, each of its unary calls left about 12 KB in the old
 * generation of the caller's heap (its signals, deadline controllers, async iterables and header
 * copies), which filled it until a major collection paused the edge
 * (docs/decisions.md#calls-between-services-skip-connects-client-machinery). Here a call makes
 * one request, one header object, at most one timer, and a pooled signal unless its caller gives
 * one. Streaming calls, which no gateway service makes to another, go to `streaming`.
 */
export function createHttp1UnaryTransport(o: Http1UnaryTransportOptions): Transport {
  const base = o.baseUrl.replace(/\/+$/, "");
  const urls = new Map<DescMethodUnary, URL>();
  const urlOf = (method: DescMethodUnary): URL => {
    let url = urls.get(method);
    if (!url) {
      url = new URL(`${base}/${method.parent.typeName}/${method.name}`);
      urls.set(method, url);
    }
    return url;
  };
  const chain = o.interceptors.reduceRight<AnyFn>(
    (next, interceptor) => interceptor(next),
    sendUnary(urlOf, o),
  );

  return {
    async unary(method, signal, timeoutMs, header, input, contextValues) {
      const deadline = timeoutMs === undefined ? o.defaultTimeoutMs : timeoutMs <= 0 ? undefined : timeoutMs;
      const headers = new Headers(header);
      headers.set("content-type", contentTypeUnaryProto);
      headers.set(headerProtocolVersion, protocolVersion);
      if (deadline !== undefined) headers.set(headerTimeout, String(deadline));
      const call = callSignal(signal, undefined);
      const url = urlOf(method as DescMethodUnary).href;
      const response = await runClientUnaryCall(
        chain as UnaryFn,
        call,
        method as DescMethodUnary,
        url,
        headers,
        input,
        contextValues,
      );
      return response as UnaryResponse<typeof method.input, typeof method.output>;
    },
    stream(method, signal, timeoutMs, header, input, contextValues) {
      return o.streaming.stream(method, signal, timeoutMs, header, input, contextValues);
    },
  };
}
