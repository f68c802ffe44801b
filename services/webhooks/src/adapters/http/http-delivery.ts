import { Buffer } from "node:buffer";
import http, { type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { performance } from "node:perf_hooks";
import { type AddressPolicy, assertAddressPolicy, isForbiddenAddress } from "./address-policy.js";
import {
  DeliveryTimeoutError,
  describeNetworkError,
  describeStatus,
  type FailureCause,
  UNREACHABLE_MESSAGE,
} from "./failure-message.js";
import { parseRetryAfter } from "./retry-after.js";
import { ForbiddenAddressError, guardedLookup, type ResolveAll } from "./ssrf-lookup.js";

export interface DeliveryRequest {
  url: string;
  /** The exact bytes that were signed. */
  body: Uint8Array;
  headers: Record<string, string>;
  timeoutMs: number;
}

export interface DeliveryOutcome {
  ok: boolean;
  httpStatus?: number;
  responseTimeMs: number;
  /** Shown to the merchant: neutral, no network facts (failure-message.ts). */
  errorMessage?: string;
  /** For operators only (logs): the precise cause, with addresses and error codes. */
  errorDetail?: string;
  /** Bounded label of the failure, for metrics. */
  failureCause?: FailureCause;
  /** The receiver's `Retry-After`, in ms from the answer; the scheduler uses it when longer. */
  retryAfterMs?: number;
  /** 410 Gone: the receiver says the endpoint no longer exists; stop retrying it. */
  gone: boolean;
  /** The first RESPONSE_EXCERPT_BYTES of the receiver's answer, as text (shown in the delivery's detail). */
  responseExcerpt?: string;
}

/** How much of a receiver's answer is kept on the delivery: enough to read an error page's gist. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface HttpDeliverer {
  deliver(request: DeliveryRequest): Promise<DeliveryOutcome>;
  /** Closes pooled connections; call once in-flight deliveries have finished. */
  close(): void;
}

export interface HttpDelivererOptions {
  /** Name resolution (all addresses of a host); the system resolver unless replaced in tests. */
  resolve?: ResolveAll;
}

export const USER_AGENT = "PaymentGateway-Webhooks/1";
/** Only the status matters; a bigger answer is cut off instead of read. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** Idle pooled sockets close before the usual 5 s keep-alive of servers, to avoid reusing a dying one. */
const IDLE_SOCKET_MS = 4_000;
const MAX_LOCATION_CHARS = 200;
/** Headers the deliverer owns: what a caller passes for them is dropped. */
const OWN_HEADERS = new Set(["user-agent", "content-length", "host", "connection", "transfer-encoding"]);

function outgoingHeaders(request: DeliveryRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!OWN_HEADERS.has(name.toLowerCase())) headers[name] = value;
  }
  if (!Object.keys(headers).some((name) => name.toLowerCase() === "content-type")) {
    headers["Content-Type"] = "application/json";
  }
  headers["User-Agent"] = USER_AGENT;
  headers["Content-Length"] = String(request.body.byteLength);
  return headers;
}

function outcomeOfAnswer(
  status: number,
  headers: IncomingHttpHeaders,
  responseTimeMs: number,
): DeliveryOutcome {
  const answered = { httpStatus: status, responseTimeMs };
  if (status >= 200 && status < 300) return { ok: true, ...answered, gone: false };
  if (status === 410) {
    return {
      ok: false,
      ...answered,
      gone: true,
      errorMessage: "Receiver answered HTTP 410 Gone: endpoint removed",
      failureCause: "http_status",
    };
  }
  const retryAfterMs = parseRetryAfter(headers["retry-after"], Date.now());
  const retry = retryAfterMs === undefined ? {} : { retryAfterMs };
  if (status >= 300 && status < 400) {
    const location = headers.location?.slice(0, MAX_LOCATION_CHARS);
    const where = location ? `to ${location}` : "without a Location";
    return {
      ok: false,
      ...answered,
      ...retry,
      gone: false,
      errorMessage: `Redirects are not followed (${status} ${where})`,
      failureCause: "redirect",
    };
  }
  return {
    ok: false,
    ...answered,
    ...retry,
    gone: false,
    errorMessage: `Receiver answered HTTP ${describeStatus(status)}`,
    failureCause: "http_status",
  };
}

/** Reads and throws away the answer so the socket can be reused, up to the cap. */
/**
 * Reads the answer's body: its first RESPONSE_EXCERPT_BYTES go to `excerpt` (once, when that much
 * arrived or the body ended), the rest is drained and dropped, at most MAX_RESPONSE_BYTES.
 */
function readExcerpt(response: IncomingMessage, excerpt: (text: string) => void, done: () => void): void {
  let received = 0;
  const kept: Buffer[] = [];
  let given = false;
  const give = () => {
    if (given) return;
    given = true;
    excerpt(Buffer.concat(kept).subarray(0, RESPONSE_EXCERPT_BYTES).toString("utf8"));
  };
  response.on("data", (chunk: Buffer) => {
    if (received < RESPONSE_EXCERPT_BYTES) kept.push(chunk.subarray(0, RESPONSE_EXCERPT_BYTES - received));
    received += chunk.length;
    if (received >= RESPONSE_EXCERPT_BYTES) give();
    if (received > MAX_RESPONSE_BYTES) response.destroy();
  });
  response.on("end", give);
  response.on("error", give);
  response.on("close", () => {
    give();
    done();
  });
}

function checkRequest(request: DeliveryRequest): void {
  if (!Number.isSafeInteger(request.timeoutMs) || request.timeoutMs <= 0) {
    throw new RangeError(
      `timeoutMs must be a positive whole number of milliseconds, got ${request.timeoutMs}`,
    );
  }
  if (!(request.body instanceof Uint8Array))
    throw new TypeError("body must be the signed bytes (Uint8Array)");
}

/**
 * Delivers webhooks over HTTP(S): one POST, no redirects followed, a deadline covering connect,
 * answer and reading it, and the address policy enforced where the socket connects (see
 * ssrf-lookup.ts) and for IP literals, which never go through a lookup. Secrets and bodies are
 * never logged or put into an error message.
 */
export function createHttpDeliverer(
  policy: AddressPolicy,
  options: HttpDelivererOptions = {},
): HttpDeliverer {
  assertAddressPolicy(policy);
  const lookup = guardedLookup(policy, options.resolve);
  const agentOptions = { keepAlive: true, timeout: IDLE_SOCKET_MS, lookup };
  const agents = { "http:": new http.Agent(agentOptions), "https:": new https.Agent(agentOptions) };
  let closed = false;

  async function deliver(request: DeliveryRequest): Promise<DeliveryOutcome> {
    checkRequest(request);
    if (closed) throw new Error("The HTTP deliverer is closed");
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const failed = (
      errorMessage: string,
      cause: FailureCause,
      errorDetail = errorMessage,
    ): DeliveryOutcome => ({
      ok: false,
      responseTimeMs: elapsed(),
      errorMessage,
      errorDetail,
      failureCause: cause,
      gone: false,
    });

    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return failed("Invalid webhook URL", "invalid_request");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      return failed(`Unsupported URL scheme (${url.protocol})`, "invalid_request");
    const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
    if (!policy.allowPrivate && isIP(hostname) !== 0 && isForbiddenAddress(hostname, policy.allowCidrs)) {
      return failed(UNREACHABLE_MESSAGE, "forbidden_address", new ForbiddenAddressError(hostname).message);
    }

    return new Promise<DeliveryOutcome>((resolve) => {
      let settled = false;
      const settle = (outcome: DeliveryOutcome) => {
        if (!settled) resolve(outcome);
        settled = true;
      };
      let req: http.ClientRequest;
      try {
        const transport = url.protocol === "https:" ? https : http;
        req = transport.request(url, {
          method: "POST",
          agent: agents[url.protocol as "http:" | "https:"],
          headers: outgoingHeaders(request),
        });
      } catch (err) {
        // Node validates header names and values before any I/O.
        const code = (err as { code?: unknown }).code;
        return settle(
          failed(
            `Invalid request header (${typeof code === "string" ? code : "rejected"})`,
            "invalid_request",
          ),
        );
      }
      // One deadline for connecting, the answer and reading it: a receiver that stalls the body
      // after its status line still lets go of the socket.
      const deadline = setTimeout(
        () => req.destroy(new DeliveryTimeoutError(request.timeoutMs)),
        request.timeoutMs,
      );
      let answered: DeliveryOutcome | undefined;
      req.on("response", (response) => {
        // The response time is the answer's status line; the outcome waits for the excerpt
        // (bounded by the same deadline, which ends a stalled body: the status still counts).
        answered = outcomeOfAnswer(response.statusCode ?? 0, response.headers, elapsed());
        const outcome = answered;
        readExcerpt(
          response,
          (text) => settle(text === "" ? outcome : { ...outcome, responseExcerpt: text }),
          () => clearTimeout(deadline),
        );
      });
      req.on("error", (err) => {
        clearTimeout(deadline);
        // After the status line, an error (the deadline ending a stalled body) ends only the
        // reading: the answer settles with what arrived.
        if (answered) return;
        const failure = describeNetworkError(err, hostname);
        settle(failed(failure.message, failure.cause, failure.detail));
      });
      req.end(Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength));
    });
  }

  return {
    deliver,
    close() {
      closed = true;
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}
