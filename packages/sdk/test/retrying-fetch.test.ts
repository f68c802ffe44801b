import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Gateway, GatewayConnectionError, GatewayProblemError, retryAfterMs } from "../src/index.js";

// The SDK's retries against a real HTTP server on loopback that answers as each test scripts it.
type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(handlers: Handler[]): Promise<{
  url: string;
  seen: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[];
}> {
  const seen: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[] = [];
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
    const handler = handlers[seen.length - 1] ?? handlers.at(-1)!;
    handler(req, res, body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  close = async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_q, res) => {
    res.writeHead(status, {
      "content-type": status < 300 ? "application/json" : "application/problem+json",
      ...headers,
    });
    res.end(JSON.stringify(body));
  };
const drop: Handler = (req) => req.socket.destroy();
const problem = (status: number) => ({
  type: "https://pay.example/errors/x",
  title: "X",
  status,
  detail: "d",
});
const SESSION = { id: "ps_1", status: "CREATED" };
const KEY = "sk_test_x";

describe("retries", () => {
  it("waits Retry-After seconds on a 429, then answers the repeat", async () => {
    const { url, seen } = await serve([json(429, problem(429), { "retry-after": "1" }), json(200, SESSION)]);
    const waits: number[] = [];
    const gw = new Gateway({ apiKey: KEY, baseUrl: url, onRetry: (r) => waits.push(r.delayMs) });
    expect(await gw.sessions.retrieve("ps_1")).toEqual(SESSION);
    expect(waits).toEqual([1000]);
    expect(seen).toHaveLength(2);
  });

  it("backs off on 502 and 503 for a create and sends the same body each time", async () => {
    const { url, seen } = await serve([json(503, problem(503)), json(502, problem(502)), json(201, SESSION)]);
    const gw = new Gateway({ apiKey: KEY, baseUrl: url, baseDelayMs: 10 });
    await gw.sessions.create({ merchant_reference: "r1", amount: "1.000" });
    expect(seen.map((s) => s.body)).toEqual(
      Array(3).fill(JSON.stringify({ merchant_reference: "r1", amount: "1.000" })),
    );
  });

  it("gives up after maxRetries and throws the last problem", async () => {
    const { url, seen } = await serve([json(503, problem(503))]);
    const gw = new Gateway({ apiKey: KEY, baseUrl: url, baseDelayMs: 1, maxRetries: 2 });
    const error = await gw.sessions.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayProblemError);
    expect((error as GatewayProblemError).status).toBe(503);
    expect(seen).toHaveLength(3);
  });

  it("answers at once when Retry-After is longer than maxDelayMs", async () => {
    const { url, seen } = await serve([json(429, problem(429), { "retry-after": "3600" })]);
    const gw = new Gateway({ apiKey: KEY, baseUrl: url, maxDelayMs: 5_000 });
    expect(await gw.sessions.list().catch((e: unknown) => (e as GatewayProblemError).status)).toBe(429);
    expect(seen).toHaveLength(1);
  });

  it("resends a refund after a dropped connection with the same Idempotency-Key", async () => {
    const { url, seen } = await serve([
      drop,
      json(201, { refund_id: "r", refunded_amount: "1.000", automated_refund: true }),
    ]);
    const gw = new Gateway({ apiKey: KEY, baseUrl: url, baseDelayMs: 1 });
    await gw.sessions.refund("ps_1", { refund_type: "FULL" });
    expect(seen).toHaveLength(2);
    expect(seen[0]!.headers["idempotency-key"]).toMatch(/^sdk_[0-9a-f-]{36}$/);
    expect(seen[1]!.headers["idempotency-key"]).toBe(seen[0]!.headers["idempotency-key"]);
  });

  it("never resends a refund without an Idempotency-Key after a dropped connection or a 502", async () => {
    const dropped = await serve([drop]);
    const gw = new Gateway({ apiKey: KEY, baseUrl: dropped.url, baseDelayMs: 1 });
    const error = await gw.sessions
      .refund("ps_1", { refund_type: "FULL" }, { idempotencyKey: false })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayConnectionError);
    expect(dropped.seen).toHaveLength(1);
    await close?.();
    const bad = await serve([json(502, problem(502))]);
    const gw2 = new Gateway({ apiKey: KEY, baseUrl: bad.url, baseDelayMs: 1 });
    const e2 = await gw2.sessions
      .refund("ps_1", { refund_type: "FULL" }, { idempotencyKey: false })
      .catch((e: unknown) => e);
    expect((e2 as GatewayProblemError).status).toBe(502);
    expect(bad.seen).toHaveLength(1);
    expect(bad.seen[0]!.headers["idempotency-key"]).toBeUndefined();
  });

  it("does not retry other errors, and carries the validation errors[] of a 422", async () => {
    const violations = [{ field: "amount", code: "invalid_precision", message: "At most 3 decimals." }];
    const { url, seen } = await serve([
      json(422, { ...problem(422), errors: violations, errors_omitted: 2 }, { "x-request-id": "req_9" }),
    ]);
    const gw = new Gateway({ apiKey: KEY, baseUrl: url });
    const error = (await gw.sessions
      .create({ merchant_reference: "r", amount: "1.0001" })
      .catch((e: unknown) => e)) as GatewayProblemError;
    expect(error.errors).toEqual(violations);
    expect(error.errorsOmitted).toBe(2);
    expect(error.requestId).toBe("req_9");
    expect(error.code).toBe("x");
    expect(seen).toHaveLength(1);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs("soon")).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
