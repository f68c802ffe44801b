import { Buffer } from "node:buffer";
import { setTimeout as sleep } from "node:timers/promises";
import { generateWebhookSecret, verifyStandardWebhook, verifyWebhook } from "@gateway/webhook-signature";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  buildWebhookHeaders,
  createHttpDeliverer,
  type DeliveryRequest,
  type HttpDeliverer,
  type ResolveAll,
} from "../../src/adapters/http/index.js";
import { closedPort, startReceiver, type TestReceiver } from "./test-receiver.js";

const BODY = Buffer.from('{"id":"evt_1","event":"session.succeeded","data":{"amount":"10.500"}}');
const REFUSED = /^Refused to deliver to a private or reserved address \(/;
/** What a merchant reads for every way of not reaching the endpoint (issue 15 item 4). */
const UNREACHABLE = "Could not connect to the endpoint";

let receiver: TestReceiver;
const deliverers: HttpDeliverer[] = [];

function deliverer(
  policy = { allowPrivate: true, allowCidrs: [] as string[] },
  resolve?: ResolveAll,
): HttpDeliverer {
  const created = createHttpDeliverer(policy, resolve ? { resolve } : {});
  deliverers.push(created);
  return created;
}

function request(overrides: Partial<DeliveryRequest> = {}): DeliveryRequest {
  return { url: receiver.url, body: BODY, headers: {}, timeoutMs: 5_000, ...overrides };
}

beforeEach(async () => {
  receiver = await startReceiver();
});

afterEach(async () => {
  for (const d of deliverers.splice(0)) d.close();
  await receiver.close();
});

describe("HTTP delivery", () => {
  it("when the receiver answers 2xx, then the delivery succeeds with the status and the time taken", async () => {
    receiver.handle((_req, res) => {
      res.statusCode = 204;
      res.end();
    });
    const outcome = await deliverer().deliver(request());
    expect(outcome).toEqual({ ok: true, httpStatus: 204, responseTimeMs: expect.any(Number), gone: false });
    expect(Number.isInteger(outcome.responseTimeMs)).toBe(true);
    expect(outcome.responseTimeMs).toBeGreaterThanOrEqual(0);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]?.method).toBe("POST");
    expect(receiver.requests[0]?.path).toBe("/hooks");
    expect(receiver.requests[0]?.body.equals(BODY)).toBe(true);
    expect(receiver.requests[0]?.headers["user-agent"]).toBe("PaymentGateway-Webhooks/1");
    expect(receiver.requests[0]?.headers["content-type"]).toBe("application/json");
    expect(receiver.requests[0]?.headers["content-length"]).toBe(String(BODY.length));
  });

  it("when signed headers are sent, then the receiver verifies both schemes over the bytes it received", async () => {
    const secret = generateWebhookSecret();
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = buildWebhookHeaders({
      webhookId: "evt_1",
      event: "session.succeeded",
      body: BODY,
      secrets: [secret],
      timestamp,
    });
    expect((await deliverer().deliver(request({ headers }))).ok).toBe(true);
    const received = receiver.requests[0];
    if (!received) throw new Error("the receiver saw no request");
    expect(received.headers["x-service-signature"]).toMatch(new RegExp(`^t=${timestamp},v1=[0-9a-f]{64}$`));
    expect(received.headers["x-service-event"]).toBe("session.succeeded");
    expect(verifyWebhook(received.body, received.headers, secret)).toEqual({
      ok: true,
      timestamp,
      webhookId: "evt_1",
    });
    expect(verifyStandardWebhook(received.body, received.headers, secret)).toEqual({
      ok: true,
      timestamp,
      webhookId: "evt_1",
    });
  });

  it("when the secret is rotating, then a receiver still holding the old secret verifies", async () => {
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = buildWebhookHeaders({
      webhookId: "evt_2",
      event: "session.failed",
      body: BODY,
      secrets: [current, previous],
      timestamp,
    });
    await deliverer().deliver(request({ headers }));
    const received = receiver.requests[0];
    if (!received) throw new Error("the receiver saw no request");
    expect(String(received.headers["x-service-signature"]).match(/v1=/g)).toHaveLength(2);
    expect(verifyWebhook(received.body, received.headers, previous).ok).toBe(true);
    expect(verifyWebhook(received.body, received.headers, current).ok).toBe(true);
    expect(verifyStandardWebhook(received.body, received.headers, previous).ok).toBe(true);
  });

  it("when the caller sets headers the deliverer owns, then the deliverer's values are sent", async () => {
    await deliverer().deliver(
      request({ headers: { "user-agent": "spoof", "Content-Length": "1", "X-Custom": "yes" } }),
    );
    expect(receiver.requests[0]?.headers["user-agent"]).toBe("PaymentGateway-Webhooks/1");
    expect(receiver.requests[0]?.headers["x-custom"]).toBe("yes");
    expect(receiver.requests[0]?.body.equals(BODY)).toBe(true);
  });

  it("when the receiver answers 500, then the delivery fails with the status", async () => {
    receiver.handle((_req, res) => {
      res.statusCode = 500;
      res.end("boom");
    });
    const outcome = await deliverer().deliver(request());
    expect(outcome).toMatchObject({
      ok: false,
      httpStatus: 500,
      gone: false,
      errorMessage: "Receiver answered HTTP 500 Internal Server Error",
    });
    expect(outcome.retryAfterMs).toBeUndefined();
  });

  it("when the receiver redirects, then the redirect is not followed and the delivery fails", async () => {
    receiver.handle((req, res) => {
      if (req.url === "/hooks") {
        res.writeHead(302, { Location: "/elsewhere" });
        res.end();
      } else res.end("should never be reached");
    });
    const outcome = await deliverer().deliver(request());
    expect(outcome).toMatchObject({
      ok: false,
      httpStatus: 302,
      gone: false,
      errorMessage: "Redirects are not followed (302 to /elsewhere)",
    });
    await sleep(50);
    expect(receiver.requests.map((r) => r.path)).toEqual(["/hooks"]);
  });

  it("when the receiver answers 410 Gone, then the outcome says the endpoint is gone", async () => {
    receiver.handle((_req, res) => {
      res.statusCode = 410;
      res.end();
    });
    expect(await deliverer().deliver(request())).toMatchObject({ ok: false, httpStatus: 410, gone: true });
  });

  it("when the receiver sends Retry-After in seconds, then the wait is reported in milliseconds", async () => {
    receiver.handle((_req, res) => {
      res.writeHead(503, { "Retry-After": "120" });
      res.end();
    });
    expect(await deliverer().deliver(request())).toMatchObject({
      ok: false,
      httpStatus: 503,
      retryAfterMs: 120_000,
    });
  });

  it("when the receiver sends Retry-After as an HTTP date, then the wait until that date is reported", async () => {
    receiver.handle((_req, res) => {
      res.writeHead(429, { "Retry-After": new Date(Date.now() + 90_000).toUTCString() });
      res.end();
    });
    const outcome = await deliverer().deliver(request());
    expect(outcome).toMatchObject({ ok: false, httpStatus: 429 });
    expect(outcome.retryAfterMs).toBeGreaterThan(85_000);
    expect(outcome.retryAfterMs).toBeLessThanOrEqual(90_000);
  });

  it("when the receiver never answers, then the delivery times out at the configured time", async () => {
    receiver.handle(() => {});
    const outcome = await deliverer().deliver(request({ timeoutMs: 200 }));
    expect(outcome).toMatchObject({ ok: false, gone: false, errorMessage: "Request timed out after 200 ms" });
    expect(outcome.httpStatus).toBeUndefined();
    expect(outcome.responseTimeMs).toBeGreaterThanOrEqual(195);
    expect(outcome.responseTimeMs).toBeLessThan(2_000);
  });

  // The merchant's message used to say "Connection refused"; the operator's detail still does.
  it("when nothing listens on the port, then the delivery fails as could not connect (refused, for operators)", async () => {
    const port = await closedPort();
    const outcome = await deliverer().deliver(request({ url: `http://127.0.0.1:${port}/hooks` }));
    expect(outcome).toMatchObject({
      ok: false,
      gone: false,
      errorMessage: UNREACHABLE,
      failureCause: "refused",
      errorDetail: "Connection refused by 127.0.0.1",
    });
  });

  // Issue 15 item 4: an unknown host and a refused private address read the same to a merchant.
  it("when the host name does not resolve, then the merchant reads could not connect and operators the DNS failure", async () => {
    const resolve: ResolveAll = (host, _options, callback) =>
      callback(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), {
          code: "ENOTFOUND",
        }) as NodeJS.ErrnoException,
        [],
      );
    const outcome = await deliverer({ allowPrivate: false, allowCidrs: [] }, resolve).deliver(
      request({ url: "http://internal-billing.corp/hooks" }),
    );
    expect(outcome).toMatchObject({ ok: false, errorMessage: UNREACHABLE, failureCause: "dns" });
    expect(outcome.errorDetail).toContain("internal-billing.corp");
    expect(outcome.errorMessage).not.toContain("internal-billing.corp");
  });

  it("when the receiver drops the connection, then the delivery fails as a reset", async () => {
    receiver.handle((req) => req.socket.destroy());
    const outcome = await deliverer().deliver(request());
    expect(outcome).toMatchObject({
      ok: false,
      gone: false,
      errorMessage: "Connection reset by the receiver",
    });
  });

  it("when the answer is very large, then it is cut off and the next delivery still works", async () => {
    receiver.handle((_req, res) => res.end(Buffer.alloc(1024 * 1024, 120)));
    const d = deliverer();
    expect(await d.deliver(request())).toMatchObject({ ok: true, httpStatus: 200 });
    receiver.handle((_req, res) => res.end("ok"));
    expect(await d.deliver(request())).toMatchObject({ ok: true, httpStatus: 200 });
  });

  it("when the receiver sends its status but stalls the body, then the status counts and the socket is freed at the deadline", async () => {
    receiver.handle((_req, res) => {
      res.writeHead(200, { "Content-Length": "100" });
      res.write("partial");
    });
    const outcome = await deliverer().deliver(request({ timeoutMs: 300 }));
    expect(outcome).toMatchObject({ ok: true, httpStatus: 200 });
    expect(outcome.responseTimeMs).toBeLessThan(300);
    await sleep(600);
    expect(receiver.closedConnections).toBe(1);
  });

  it("keeps the first 1 KiB of the receiver's answer as the delivery's excerpt", async () => {
    receiver.handle((_req, res) => {
      res.writeHead(500, { "content-type": "text/html" });
      res.end(`<h1>Down</h1>${"x".repeat(3000)}`);
    });
    const outcome = await deliverer().deliver(request());
    expect(outcome.responseExcerpt).toHaveLength(1024);
    expect(outcome.responseExcerpt?.startsWith("<h1>Down</h1>xxx")).toBe(true);
    receiver.handle((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    expect((await deliverer().deliver(request())).responseExcerpt).toBeUndefined();
  });

  it("when two deliveries go to the same receiver, then the connection is reused", async () => {
    const d = deliverer();
    await d.deliver(request());
    await d.deliver(request());
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.connections).toBe(1);
  });

  it.each([
    ["not a URL", "not a url", "Invalid webhook URL"],
    ["an unsupported scheme", "ftp://example.com/hook", "Unsupported URL scheme (ftp:)"],
  ])("when the URL is %s, then the delivery fails without a request", async (_name, url, message) => {
    expect(await deliverer().deliver(request({ url }))).toMatchObject({ ok: false, errorMessage: message });
  });

  it("when a header value contains a line break, then the delivery fails without a request", async () => {
    const outcome = await deliverer().deliver(request({ headers: { "X-Bad": "a\r\nInjected: yes" } }));
    expect(outcome).toMatchObject({
      ok: false,
      errorMessage: expect.stringMatching(/^Invalid request header/),
    });
    expect(receiver.connections).toBe(0);
  });

  it("when the timeout is not a positive whole number, then deliver rejects", async () => {
    await expect(deliverer().deliver(request({ timeoutMs: 0 }))).rejects.toThrow(RangeError);
  });

  it("when the deliverer is closed, then deliver rejects", async () => {
    const d = deliverer();
    d.close();
    await expect(d.deliver(request())).rejects.toThrow(/closed/);
  });
});

describe("SSRF guard (allowPrivate: false)", () => {
  const strict = { allowPrivate: false, allowCidrs: [] as string[] };

  it.each([
    ["IPv4 loopback", (port: number) => `http://127.0.0.1:${port}/hooks`, "127.0.0.1"],
    ["a private address", () => "http://10.0.0.1/hooks", "10.0.0.1"],
    ["the cloud metadata address", () => "http://169.254.169.254/latest/meta-data/", "169.254.169.254"],
    ["IPv6 loopback", (port: number) => `http://[::1]:${port}/hooks`, "::1"],
    [
      "an IPv4-mapped IPv6 loopback",
      (port: number) => `http://[::ffff:127.0.0.1]:${port}/hooks`,
      "127.0.0.1",
    ],
    [
      "loopback written as a decimal number",
      (port: number) => `http://2130706433:${port}/hooks`,
      "127.0.0.1",
    ],
    ["a host name resolving to loopback", (port: number) => `http://localhost:${port}/hooks`, "127.0.0.1"],
  ])(
    "when the URL points at %s, then it is refused before any connection and fast",
    async (_name, url, shown) => {
      const outcome = await deliverer(strict).deliver(request({ url: url(receiver.port), timeoutMs: 5_000 }));
      // The address is the operator's to know (errorDetail), never the merchant's (errorMessage).
      expect(outcome).toMatchObject({
        ok: false,
        gone: false,
        errorMessage: UNREACHABLE,
        failureCause: "forbidden_address",
      });
      expect(outcome.errorDetail).toBe(`Refused to deliver to a private or reserved address (${shown})`);
      expect(outcome.httpStatus).toBeUndefined();
      expect(outcome.responseTimeMs).toBeLessThan(1_000);
      await sleep(20);
      expect(receiver.connections).toBe(0);
      expect(receiver.requests).toHaveLength(0);
    },
  );

  it("when loopback is allow-listed, then deliveries to it go through again", async () => {
    const d = deliverer({ allowPrivate: false, allowCidrs: ["127.0.0.0/8", "::1/128"] });
    expect(await d.deliver(request())).toMatchObject({ ok: true, httpStatus: 200 });
    expect(await d.deliver(request({ url: `http://localhost:${receiver.port}/hooks` }))).toMatchObject({
      ok: true,
      httpStatus: 200,
    });
    expect(receiver.requests).toHaveLength(2);
  });

  it("when a name resolves, then the socket connects to the very address that was checked", async () => {
    let calls = 0;
    const resolve: ResolveAll = (_host, _options, callback) => {
      calls += 1;
      callback(null, [{ address: "127.0.0.1", family: 4 }]);
    };
    const d = deliverer({ allowPrivate: false, allowCidrs: ["127.0.0.1/32"] }, resolve);
    const outcome = await d.deliver(request({ url: `http://merchant.example:${receiver.port}/hooks` }));
    expect(outcome).toMatchObject({ ok: true, httpStatus: 200 });
    expect(receiver.requests[0]?.headers.host).toBe(`merchant.example:${receiver.port}`);
    expect(calls).toBe(1);
  });

  it("when a name resolves to a public and a private address (rebinding), then it is refused without connecting", async () => {
    const resolve: ResolveAll = (_host, _options, callback) =>
      callback(null, [
        { address: "93.184.215.14", family: 4 },
        { address: "127.0.0.1", family: 4 },
      ]);
    const outcome = await deliverer(strict, resolve).deliver(
      request({ url: `http://rebind.example:${receiver.port}/hooks` }),
    );
    expect(outcome.errorMessage).toBe(UNREACHABLE);
    expect(outcome.errorDetail).toMatch(REFUSED);
    expect(outcome.errorDetail).toContain("127.0.0.1");
    await sleep(20);
    expect(receiver.connections).toBe(0);
  });
});

describe("SSRF guard configuration", () => {
  it("when the allow-list holds an invalid CIDR, then creating the deliverer throws naming it", () => {
    expect(() => createHttpDeliverer({ allowPrivate: false, allowCidrs: ["10.0.0.0/40"] })).toThrow(
      "10.0.0.0/40",
    );
  });
});
