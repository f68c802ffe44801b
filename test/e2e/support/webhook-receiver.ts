import { Buffer } from "node:buffer";
import http, { type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { waitFor } from "@gateway/testkit";
import { type VerifyResult, verifyStandardWebhook, verifyWebhook } from "@gateway/webhook-signature";

/** How the receiver answers one request. */
export type ReceiverAnswer =
  | { kind: "status"; status: number; headers?: Record<string, string>; delayMs?: number }
  /** Reads the request and never answers (until the gateway gives up or the receiver closes). */
  | { kind: "hang" }
  /** Reads the request, then destroys the socket without an answer (a connection reset). */
  | { kind: "reset" };

export const answer = {
  ok: (delayMs = 0): ReceiverAnswer => ({ kind: "status", status: 200, delayMs }),
  status: (status: number, headers: Record<string, string> = {}): ReceiverAnswer => ({
    kind: "status",
    status,
    headers,
  }),
  redirect: (location: string): ReceiverAnswer => ({ kind: "status", status: 302, headers: { location } }),
  gone: (): ReceiverAnswer => ({ kind: "status", status: 410 }),
  hang: (): ReceiverAnswer => ({ kind: "hang" }),
  reset: (): ReceiverAnswer => ({ kind: "reset" }),
};

export interface ReceivedWebhook {
  /** 1, 2, 3… in arrival order over the receiver's life. */
  n: number;
  path: string;
  method: string;
  /** The body bytes exactly as they arrived. */
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
  /** Date.now() when the whole body had arrived. */
  receivedAt: number;
  /** The body parsed (undefined when it is not JSON). */
  json: any;
  /** The event id the gateway sent (X-Service-Webhook-Id). */
  webhookId: string | undefined;
  /** `verifyWebhook` / `verifyStandardWebhook` with the secrets known when it arrived. */
  signature: VerifyResult | undefined;
  standard: VerifyResult | undefined;
  answer: ReceiverAnswer;
}

export interface WebhookReceiver {
  /** http://127.0.0.1:<port>/hooks */
  readonly url: string;
  readonly port: number;
  readonly requests: ReceivedWebhook[];
  /** Secrets the receiver verifies with from now on (current first). */
  setSecrets(secrets: string | string[]): void;
  /** How request number n (1-based, over the receiver's life) is answered; default 200. */
  answerWith(plan: (n: number) => ReceiverAnswer): void;
  /** Requests whose envelope is about this session. */
  forSession(sessionId: string): ReceivedWebhook[];
  /** Waits until `count` requests matched `filter`, and returns them. */
  waitForRequests(
    count: number,
    filter?: (r: ReceivedWebhook) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

function parseJson(raw: Buffer): any {
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    return undefined;
  }
}

function respond(res: ServerResponse, a: ReceiverAnswer & { kind: "status" }): void {
  const send = () => {
    if (res.destroyed) return;
    res.writeHead(a.status, { "content-type": "text/plain", ...a.headers });
    res.end(a.status < 300 ? "ok" : "no");
  };
  if (a.delayMs) setTimeout(send, a.delayMs);
  else send();
}

/**
 * A merchant's webhook endpoint for end-to-end tests: a real HTTP server on 127.0.0.1:0 that
 * records every request's raw bytes and headers, verifies both signature schemes, and answers
 * as the test says (status, slow answer, hang, reset, redirect, 410).
 */
export async function startWebhookReceiver(
  options: { secrets?: string | string[] } = {},
): Promise<WebhookReceiver> {
  const requests: ReceivedWebhook[] = [];
  const sockets = new Set<Socket>();
  let secrets: string[] = options.secrets === undefined ? [] : ([] as string[]).concat(options.secrets);
  let plan: (n: number) => ReceiverAnswer = () => answer.ok();
  let arrived = 0;

  const server = http.createServer((req, res) => {
    const n = ++arrived;
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks);
      const a = plan(n);
      const verifiable = secrets.length > 0;
      requests.push({
        n,
        path: req.url ?? "",
        method: req.method ?? "",
        rawBody,
        headers: req.headers,
        receivedAt: Date.now(),
        json: parseJson(rawBody),
        webhookId: req.headers["x-service-webhook-id"] as string | undefined,
        signature: verifiable ? verifyWebhook(rawBody, req.headers, secrets) : undefined,
        standard: verifiable ? verifyStandardWebhook(rawBody, req.headers, secrets) : undefined,
        answer: a,
      });
      if (a.kind === "reset") req.socket.destroy();
      else if (a.kind === "status") respond(res, a);
      // "hang": nothing; the socket is destroyed by the gateway's timeout or by close().
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    requests,
    setSecrets(next) {
      secrets = ([] as string[]).concat(next);
    },
    answerWith(next) {
      plan = next;
    },
    forSession(sessionId) {
      return requests.filter((r) => r.json?.data?.id === sessionId);
    },
    async waitForRequests(count, filter = () => true, timeoutMs = 20_000) {
      return waitFor(
        () => {
          const matching = requests.filter(filter);
          return matching.length >= count ? matching : undefined;
        },
        { timeoutMs, intervalMs: 50, message: `${count} webhook request(s) at ${receiver.url}` },
      );
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}
