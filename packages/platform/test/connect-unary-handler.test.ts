import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { AccountsService, AuthenticateRequestSchema, AuthenticateResponseSchema } from "@gateway/proto";
import { afterEach, describe, expect, it } from "vitest";
import { GatewayError } from "../src/errors/gateway-error.js";
import { createConnectUnaryHandler } from "../src/server/connect-unary-handler.js";
import { standardServerInterceptors } from "../src/server/server-interceptors.js";
import { SERVICE_MESSAGE_MAX_BYTES } from "../src/server/service-server.js";
import { captureLogger } from "./capture-logger.js";

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const PATH = `/${AccountsService.typeName}/Authenticate`;

/**
 * Authenticate answering by key: "missing" → NOT_FOUND with metadata, "boom" → a bug, "slow" →
 * waits until its signal aborts, noting the reason's code in `aborted`.
 */
function accountsRoutes(aborted: Code[]) {
  return (router: ConnectRouter) =>
    router.service(AccountsService, {
      async authenticate(req, context) {
        if (req.apiKey === "missing")
          throw new GatewayError("NOT_FOUND", "No API key matches.", { metadata: { id: "key_1" } });
        if (req.apiKey === "boom") throw new Error("database password=hunter2 leaked in a stack");
        if (req.apiKey === "slow")
          await new Promise((_, reject) =>
            context.signal.addEventListener("abort", () => {
              aborted.push(ConnectError.from(context.signal.reason).code);
              reject(context.signal.reason);
            }),
          );
        return create(AuthenticateResponseSchema, { keyId: `key_for_${req.apiKey}` });
      },
    });
}

/** A server on loopback for `handler`; closed after the test. */
async function serve(handler: http.RequestListener): Promise<number> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return (server.address() as AddressInfo).port;
}

/**
 * Our handler in front of Connect's adapter, as the service server runs them (`passed` notes each
 * request it leaves to the adapter), and Connect's adapter alone with the same routes and
 * interceptors, the reference.
 */
async function startBoth() {
  const aborted: Code[] = [];
  const passed: string[] = [];
  const logger = captureLogger("accounts").logger;
  const interceptors = standardServerInterceptors("accounts", logger);
  const adapterOf = (routes: (router: ConnectRouter) => void) =>
    connectNodeAdapter({ readMaxBytes: SERVICE_MESSAGE_MAX_BYTES, interceptors, routes });
  const routes = accountsRoutes(aborted);
  const unary = createConnectUnaryHandler({ routes, interceptors, readMaxBytes: SERVICE_MESSAGE_MAX_BYTES });
  const fallback = adapterOf(routes);
  const ours = await serve((req, res) => {
    if (unary(req, res)) return;
    passed.push(req.url ?? "");
    fallback(req, res);
  });
  const reference = await serve(adapterOf(accountsRoutes([])));
  return { ours, reference, aborted, passed };
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One HTTP/1.1 POST on a connection of its own. */
function post(
  port: number,
  body: Uint8Array,
  headers: Record<string, string> = {},
  path = PATH,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        agent: false,
        headers: { "content-type": "application/proto", ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const request = (apiKey: string) =>
  toBinary(AuthenticateRequestSchema, create(AuthenticateRequestSchema, { apiKey }));

/** What a client can tell of an answer: status, content type, and the error's code if any. */
function observed(a: Answer) {
  const json = a.headers["content-type"] === "application/json";
  return {
    status: a.status,
    contentType: a.headers["content-type"],
    code: json ? (JSON.parse(a.body.toString()) as { code: string }).code : undefined,
  };
}

// docs/decisions.md#services-serve-each-others-calls-without-connects-adapter
describe("the service server's own handler of Connect unary calls", () => {
  it("answers as Connect's adapter does: an answer, a refusal with its detail, a bug without its cause", async () => {
    const { ours, reference, passed } = await startBoth();
    for (const apiKey of ["k", "missing", "boom"]) {
      const [mine, theirs] = await Promise.all([
        post(ours, request(apiKey)),
        post(reference, request(apiKey)),
      ]);
      expect(observed(mine), apiKey).toEqual(observed(theirs));
      expect(mine.body.equals(theirs.body), apiKey).toBe(true);
    }
    expect((await post(ours, request("boom"))).body.toString()).not.toContain("hunter2");
    expect(passed).toEqual([]);
  });

  it("refuses a body that is not the request's message as internal, as Connect's adapter does", async () => {
    const { ours, reference } = await startBoth();
    const garbage = Uint8Array.from([0x0a, 0xff, 0xff, 0xff]);
    const [mine, theirs] = await Promise.all([post(ours, garbage), post(reference, garbage)]);
    expect(observed(mine)).toEqual(observed(theirs));
    expect(observed(mine).code).toBe("internal");
  });

  it("refuses a body over the message limit, as Connect's adapter does, and keeps no connection for it", async () => {
    const { ours, reference } = await startBoth();
    const huge = toBinary(
      AuthenticateRequestSchema,
      create(AuthenticateRequestSchema, { apiKey: "k".repeat(SERVICE_MESSAGE_MAX_BYTES + 1) }),
    );
    const [mine, theirs] = await Promise.all([post(ours, huge), post(reference, huge)]);
    expect(observed(mine)).toEqual(observed(theirs));
    expect(observed(mine).code).toBe("resource_exhausted");
    expect(mine.headers.connection).toBe("close");
  });

  it("when the caller's deadline passes, then it answers deadline exceeded and aborts the handler's signal", async () => {
    const { ours, aborted } = await startBoth();
    const began = performance.now();
    const answer = await post(ours, request("slow"), { "connect-timeout-ms": "150" });
    expect(observed(answer)).toEqual({
      status: 504,
      contentType: "application/json",
      code: "deadline_exceeded",
    });
    expect(performance.now() - began).toBeGreaterThanOrEqual(140);
    expect(aborted).toEqual([Code.DeadlineExceeded]);
  });

  it("when the caller goes away mid-call, then the handler's signal aborts as cancelled", async () => {
    const { ours, aborted } = await startBoth();
    const req = http.request({
      host: "127.0.0.1",
      port: ours,
      path: PATH,
      method: "POST",
      agent: false,
      headers: { "content-type": "application/proto" },
    });
    req.on("error", () => undefined);
    req.end(request("slow"));
    await new Promise((resolve) => setTimeout(resolve, 150));
    req.destroy();
    await expect.poll(() => aborted).toEqual([Code.Canceled]);
  });

  it("leaves every other request to Connect's adapter: JSON, compression, a bad timeout, another version, an unknown method", async () => {
    const { ours, reference, passed } = await startBoth();
    const cases: Array<{ body: Uint8Array; headers: Record<string, string>; path?: string }> = [
      { body: Buffer.from(JSON.stringify({ apiKey: "k" })), headers: { "content-type": "application/json" } },
      { body: request("k"), headers: { "content-encoding": "gzip" } },
      { body: request("k"), headers: { "connect-timeout-ms": "soon" } },
      { body: request("k"), headers: { "connect-protocol-version": "2" } },
      { body: request("k"), headers: {}, path: `/${AccountsService.typeName}/NoSuchMethod` },
    ];
    for (const c of cases) {
      const [mine, theirs] = await Promise.all([
        post(ours, c.body, c.headers, c.path),
        post(reference, c.body, c.headers, c.path),
      ]);
      expect(observed(mine), JSON.stringify(c.headers)).toEqual(observed(theirs));
      expect(mine.body.equals(theirs.body), JSON.stringify(c.headers)).toBe(true);
    }
    expect(passed).toHaveLength(cases.length);
  });
});
