import { IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { type DescMethod, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type ConnectRouter,
  createContextValues,
  type HandlerContext,
  type Interceptor,
  type MethodImplSpec,
} from "@connectrpc/connect";
import { invokeUnaryImplementation } from "@connectrpc/connect/protocol";
import {
  codeToHttpStatus,
  contentTypeUnaryJson,
  contentTypeUnaryProto,
  errorToJsonBytes,
  headerProtocolVersion,
  headerStreamEncoding,
  headerTimeout,
  headerUnaryEncoding,
  parseTimeout,
  protocolVersion,
} from "@connectrpc/connect/protocol-connect";
import { type CallSignal, callSignal, remainingTimeOf } from "./call-signal.js";
import { unaryMethodsOf } from "./unary-methods.js";

const TRAILER_PREFIX = "trailer-";
// Node gives a request's header names in lower case.
const ENCODING = headerUnaryEncoding.toLowerCase();
const STREAM_ENCODING = headerStreamEncoding.toLowerCase();
const VERSION = headerProtocolVersion.toLowerCase();
const TIMEOUT = headerTimeout.toLowerCase();

/** A unary method served here, with what every call to it hands its handler. */
interface UnaryTarget {
  spec: MethodImplSpec;
  method: DescMethod;
}

/** The request's headers as the Headers interceptors and handlers read. */
function requestHeaderOf(req: IncomingMessage): Headers {
  const header = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) header.append(raw[i] as string, raw[i + 1] as string);
  return header;
}

/** The handler's response header and trailer, trailers prefixed as the Connect protocol carries them. */
function responseHeadersOf(context: HandlerContext, into: OutgoingHttpHeaders): OutgoingHttpHeaders {
  context.responseHeader.forEach((value, name) => {
    into[name] = value;
  });
  context.responseTrailer.forEach((value, name) => {
    into[`${TRAILER_PREFIX}${name}`] = value;
  });
  return into;
}

/**
 * One unary call served: the request body read (bounded), the handler run behind the server
 * interceptors, then the answer or a Connect error written once. A deadline that passes first
 * answers DEADLINE_EXCEEDED and aborts the handler's signal; a caller that goes away aborts it
 * as CANCELED.
 */
class UnaryServerCall {
  private answered = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly call: CallSignal = callSignal(undefined, undefined);
  private readonly context: HandlerContext;

  constructor(
    private readonly target: UnaryTarget,
    req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly interceptors: Interceptor[],
    private readonly readMaxBytes: number,
    timeoutMs: number | undefined,
  ) {
    const { method } = target;
    this.context = {
      service: method.parent,
      method,
      protocolName: "connect",
      requestMethod: "POST",
      url: req.url ?? "",
      signal: this.call.signal,
      timeoutMs: remainingTimeOf(timeoutMs),
      requestHeader: requestHeaderOf(req),
      responseHeader: new Headers(),
      responseTrailer: new Headers(),
      values: createContextValues(),
    };
    if (timeoutMs !== undefined) {
      this.timer = setTimeout(() => {
        const err = new ConnectError("the operation timed out", Code.DeadlineExceeded);
        this.call.abort(err);
        this.fail(err);
      }, timeoutMs);
    }
    // 'close' comes once, when the answer is out or the caller has gone: the call's end.
    res.on("close", () => {
      clearTimeout(this.timer);
      if (!this.answered) this.call.abort(new ConnectError("the caller went away", Code.Canceled));
      this.call.end();
    });
    req.on("data", (chunk: Buffer) => {
      this.size += chunk.byteLength;
      if (this.size <= this.readMaxBytes) this.chunks.push(chunk);
      else if (!this.answered) {
        // The rest is read and dropped, and the connection is not kept for another call.
        this.res.shouldKeepAlive = false;
        this.fail(new ConnectError(`the message exceeds ${this.readMaxBytes} bytes`, Code.ResourceExhausted));
      }
    });
    req.on("end", () => {
      if (!this.answered) void this.run();
    });
  }

  private async run(): Promise<void> {
    const { method } = this.target;
    let input: unknown;
    try {
      input = fromBinary(method.input, Buffer.concat(this.chunks, this.size));
    } catch {
      // INTERNAL, as Connect's adapter answers: only a broken client of ours sends such a body.
      this.fail(new ConnectError("the request is not a valid message", Code.Internal));
      return;
    }
    try {
      const message = await invokeUnaryImplementation(
        this.target.spec as never,
        this.context,
        input as never,
        this.interceptors,
      );
      this.succeed(toBinary(method.output, message as never));
    } catch (err) {
      this.fail(ConnectError.from(err));
    }
  }

  private succeed(body: Uint8Array): void {
    if (this.answered) return;
    this.answered = true;
    const headers = responseHeadersOf(this.context, {
      "content-type": contentTypeUnaryProto,
      "content-length": body.byteLength,
    });
    this.res.writeHead(200, headers).end(body);
    clearTimeout(this.timer);
  }

  /** Answers with `err` as the Connect protocol writes a unary error: JSON, its status by code. */
  private fail(err: ConnectError): void {
    if (this.answered) return;
    this.answered = true;
    const headers: OutgoingHttpHeaders = {};
    err.metadata.forEach((value, name) => {
      headers[name] = value;
    });
    responseHeadersOf(this.context, headers);
    const body = errorToJsonBytes(err, {});
    headers["content-type"] = contentTypeUnaryJson;
    headers["content-length"] = body.byteLength;
    this.res.writeHead(codeToHttpStatus(err.code), headers).end(body);
    clearTimeout(this.timer);
  }
}

/**
 * The Connect protocol's unary calls in binary over HTTP/1.1, served without Connect's adapter:
 * what the gateway's own services send each other (`serviceTransport`). Under load, each call
 * through Connect's adapter left about 7 KB in the service's old generation (its signals,
 * async iterables and header copies), and the sessions service's major collections were what
 * remained of the distributed create's tail
 * (docs/decisions.md#services-serve-each-others-calls-without-connects-adapter).
 *
 * Takes a request, and returns true, only when it is exactly such a call to one of `routes`'
 * unary methods: anything else (HTTP/2, gRPC, gRPC-Web, JSON, compression, a malformed timeout,
 * another protocol version, an unknown method, health and reflection) is left to Connect's
 * adapter, which answers it as before. Handlers run behind the same interceptors.
 */
export function createConnectUnaryHandler(o: {
  routes: (router: ConnectRouter) => void;
  interceptors: Interceptor[];
  readMaxBytes: number;
}): (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => boolean {
  const targets = new Map<string, UnaryTarget>();
  for (const [method, spec] of unaryMethodsOf(o.routes)) {
    if (spec.kind === "unary") targets.set(`/${method.parent.typeName}/${method.name}`, { spec, method });
  }
  return (req, res) => {
    if (!(req instanceof IncomingMessage) || req.method !== "POST") return false;
    const headers = req.headers;
    if (headers["content-type"] !== contentTypeUnaryProto) return false;
    const encoding = headers[ENCODING] ?? headers[STREAM_ENCODING];
    if (encoding !== undefined && encoding !== "identity") return false;
    const version = headers[VERSION];
    if (version !== undefined && version !== protocolVersion) return false;
    const timeout = headers[TIMEOUT];
    if (Array.isArray(timeout)) return false;
    const deadline = parseTimeout(timeout ?? null, Number.MAX_SAFE_INTEGER);
    if (deadline.error) return false;
    const target = targets.get(req.url ?? "");
    if (!target) return false;
    new UnaryServerCall(
      target,
      req,
      res as ServerResponse,
      o.interceptors,
      o.readMaxBytes,
      deadline.timeoutMs,
    );
    return true;
  };
}
