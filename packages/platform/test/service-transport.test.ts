import { getEventListeners } from "node:events";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter, createClient, type Interceptor } from "@connectrpc/connect";
import { AccountsService, AuthenticateResponseSchema } from "@gateway/proto";
import { afterEach, describe, expect, it } from "vitest";
import { fromConnectError } from "../src/errors/connect-errors.js";
import { GatewayError } from "../src/errors/gateway-error.js";
import { type RunningServer, startServiceServer } from "../src/server/service-server.js";
import {
  connectServiceTransport,
  generateServiceAuthKeys,
  MAX_CONNECTIONS_PER_SERVICE,
  parseServiceAuthKeys,
  serviceTransport,
} from "../src/service-auth/index.js";
import { captureLogger } from "./capture-logger.js";

const running: RunningServer[] = [];
const relays: net.Server[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
  for (const relay of relays.splice(0)) relay.close();
});

/** An answer larger than any service message may be (4 MiB). */
const OVERSIZED_KEY_ID = "k".repeat(5 * 1024 * 1024);

/**
 * An accounts server behind service authentication that notes the content type and the token of
 * each call it lets through: "missing" is NOT_FOUND, "slow" never answers, "held" answers once
 * `held` settles. `port` 0 (the default) is a free one.
 */
async function startAccounts(keys: Record<string, string>, o: { port?: number; held?: Promise<void> } = {}) {
  const seen: Array<{ contentType: string | null; caller: string | null }> = [];
  const deadlines: Array<string | null> = [];
  const note: Interceptor = (next) => (req) => {
    seen.push({ contentType: req.header.get("content-type"), caller: req.header.get("authorization") });
    deadlines.push(req.header.get("connect-timeout-ms"));
    return next(req);
  };
  const routes = (router: ConnectRouter) =>
    router.service(AccountsService, {
      async authenticate(req, context) {
        if (req.apiKey === "missing")
          throw new GatewayError("NOT_FOUND", "No API key matches.", { metadata: { id: "key_1" } });
        if (req.apiKey === "slow") await new Promise(() => undefined);
        if (req.apiKey === "held") await o.held;
        if (req.apiKey === "huge") return create(AuthenticateResponseSchema, { keyId: OVERSIZED_KEY_ID });
        if (req.apiKey === "noted") {
          context.responseHeader.set("x-note", "from the header");
          context.responseTrailer.set("x-end", "from the trailer");
        }
        return create(AuthenticateResponseSchema, { keyId: `key_for_${req.apiKey}` });
      },
    });
  const server = await startServiceServer({
    name: "accounts",
    port: o.port ?? 0,
    routes,
    logger: captureLogger("accounts").logger,
    interceptors: [note],
    auth: { target: "accounts", keys: parseServiceAuthKeys("accounts")(keys.accounts!) },
  });
  running.push(server);
  return { url: `http://127.0.0.1:${server.port}`, port: server.port, server, seen, deadlines };
}

/** A TCP relay to `port` that notes the first bytes of every connection made through it. */
async function relayTo(port: number) {
  const firstBytes: string[] = [];
  const relay = net.createServer((inbound) => {
    const outbound = net.connect(port, "127.0.0.1");
    inbound.once("data", (chunk: Buffer) => firstBytes.push(chunk.toString("latin1")));
    inbound.pipe(outbound).pipe(inbound);
    const closeBoth = () => {
      inbound.destroy();
      outbound.destroy();
    };
    for (const socket of [inbound, outbound]) socket.on("error", closeBoth).on("close", closeBoth);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  relays.push(relay);
  return { url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`, firstBytes };
}

/** A promise and the function that settles it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A plain HTTP server standing where a service should be, answering every request with `answer`. */
async function startImpostor(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  relays.push(server as unknown as net.Server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

type ServiceTransportFactory = typeof serviceTransport;

/** What a call through `transportOf` fails with when `answer` stands where the service should be. */
async function failureFromImpostor(
  transportOf: ServiceTransportFactory,
  answer: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<unknown> {
  const url = await startImpostor(answer);
  const keys = parseServiceAuthKeys("edge")(generateServiceAuthKeys().edge!);
  return createClient(AccountsService, transportOf(url, "accounts", keys))
    .authenticate({ apiKey: "k" })
    .catch((e: unknown) => e);
}

/**
 * One contract, two clients: the gateway's own unary client (serviceTransport) and Connect's
 * transport with the same pool, interceptors and limits, the reference it must match
 * (docs/decisions.md#calls-between-services-skip-connects-client-machinery).
 */
const CLIENTS: Array<[string, ServiceTransportFactory]> = [
  ["serviceTransport", serviceTransport],
  ["connectServiceTransport (the reference)", connectServiceTransport],
];

// docs/decisions.md#services-call-each-other-with-the-connect-protocol
describe.each(CLIENTS)("%s", (_name, transportOf) => {
  /** The edge's client of accounts, signing with the edge's key of `keys`. */
  function edgeClient(url: string, keys: Record<string, string>, o: { defaultTimeoutMs?: number } = {}) {
    return createClient(
      AccountsService,
      transportOf(url, "accounts", parseServiceAuthKeys("edge")(keys.edge!), o),
    );
  }

  it("calls another service with the Connect protocol in binary, carrying the caller's service token", async () => {
    const keys = generateServiceAuthKeys();
    const accounts = await startAccounts(keys);
    const client = edgeClient(accounts.url, keys);
    expect((await client.authenticate({ apiKey: "k" })).keyId).toBe("key_for_k");
    expect(accounts.seen).toEqual([
      { contentType: "application/proto", caller: expect.stringMatching(/^Bearer /) },
    ]);
  });

  it("when the service refuses, then the caller reads the same reason and metadata as over gRPC", async () => {
    const keys = generateServiceAuthKeys();
    const accounts = await startAccounts(keys);
    const client = edgeClient(accounts.url, keys);
    const err = fromConnectError(await client.authenticate({ apiKey: "missing" }).catch((e: unknown) => e));
    expect(err.reason).toBe("NOT_FOUND");
    expect(err.metadata).toMatchObject({ id: "key_1" });
  });

  it("when the service does not answer within the deadline, then the call fails as unavailable for now", async () => {
    const keys = generateServiceAuthKeys();
    const accounts = await startAccounts(keys);
    const client = edgeClient(accounts.url, keys, { defaultTimeoutMs: 200 });
    const err = fromConnectError(await client.authenticate({ apiKey: "slow" }).catch((e: unknown) => e));
    expect(err.reason).toBe("SERVICE_UNAVAILABLE");
  });

  // docs/decisions.md#calls-between-services-use-a-pool-of-http11-connections
  it("calls travel over HTTP/1.1, one after another on the same keep-alive connection", async () => {
    const keys = generateServiceAuthKeys();
    const accounts = await startAccounts(keys);
    const relay = await relayTo(accounts.port);
    const client = edgeClient(relay.url, keys);
    for (const apiKey of ["a", "b", "c", "d", "e"])
      expect((await client.authenticate({ apiKey })).keyId).toBe(`key_for_${apiKey}`);
    expect(relay.firstBytes).toHaveLength(1);
    expect(relay.firstBytes[0]).toMatch(
      /^POST \/gateway\.accounts\.v1\.AccountsService\/Authenticate HTTP\/1\.1\r\n/,
    );
  });

  it("when more calls are in flight than its connections, then the rest wait for a free one and every call is answered", async () => {
    const keys = generateServiceAuthKeys();
    const { opened, open } = gate();
    const accounts = await startAccounts(keys, { held: opened });
    const relay = await relayTo(accounts.port);
    const client = edgeClient(relay.url, keys);
    const calls = Array.from({ length: MAX_CONNECTIONS_PER_SERVICE + 16 }, () =>
      client.authenticate({ apiKey: "held" }),
    );
    await expect.poll(() => accounts.seen.length).toBe(MAX_CONNECTIONS_PER_SERVICE);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(accounts.seen).toHaveLength(MAX_CONNECTIONS_PER_SERVICE);
    open();
    const answers = await Promise.all(calls);
    expect(answers.every((a) => a.keyId === "key_for_held")).toBe(true);
    expect(relay.firstBytes).toHaveLength(MAX_CONNECTIONS_PER_SERVICE);
  });

  it("when a call takes longer than a connection may sit idle, then it is still answered", async () => {
    const keys = generateServiceAuthKeys();
    const { opened, open } = gate();
    const accounts = await startAccounts(keys, { held: opened });
    const client = edgeClient(accounts.url, keys);
    const call = client.authenticate({ apiKey: "held" });
    setTimeout(open, 1_500);
    expect((await call).keyId).toBe("key_for_held");
  });

  it("when the service drains while calls keep coming, then each call is answered or refused as unavailable, never failed", async () => {
    const keys = generateServiceAuthKeys();
    const accounts = await startAccounts(keys);
    const clients = Array.from({ length: 4 }, () => edgeClient(accounts.url, keys));
    let closing: Promise<void> | undefined;
    const outcomes: string[] = [];
    await Promise.all(
      clients.map(async (client, i) => {
        for (let call = 0; call < 60; call++) {
          if (i === 0 && call === 20) closing = accounts.server.close();
          outcomes.push(
            await client.authenticate({ apiKey: "k" }).then(
              () => "answered",
              (err: unknown) => fromConnectError(err).reason,
            ),
          );
          await new Promise((resolve) => setTimeout(resolve, call % 7));
        }
      }),
    );
    await closing;
    expect(outcomes).toContain("answered");
    expect(outcomes).toContain("SERVICE_UNAVAILABLE");
    expect(outcomes.filter((o) => o !== "answered" && o !== "SERVICE_UNAVAILABLE")).toEqual([]);
  });

  it("when the service restarts, then the next call reaches the new process", async () => {
    const keys = generateServiceAuthKeys();
    const first = await startAccounts(keys);
    const client = edgeClient(first.url, keys);
    expect((await client.authenticate({ apiKey: "before" })).keyId).toBe("key_for_before");
    await first.server.close();
    const second = await startAccounts(keys, { port: first.port });
    expect((await client.authenticate({ apiKey: "after" })).keyId).toBe("key_for_after");
    expect(second.seen).toHaveLength(1);
  });

  it("when the caller's key is not the one the service holds, then the call is refused", async () => {
    const accounts = await startAccounts(generateServiceAuthKeys());
    const strangers = generateServiceAuthKeys();
    const client = edgeClient(accounts.url, strangers);
    const err = await client.authenticate({ apiKey: "k" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.Unauthenticated);
    expect(accounts.seen).toHaveLength(0);
  });

  it("tells the service its deadline, in the Connect protocol's header", async () => {
    const keys = generateServiceAuthKeys();
    const accounts = await startAccounts(keys);
    await edgeClient(accounts.url, keys, { defaultTimeoutMs: 7_000 }).authenticate({ apiKey: "k" });
    await edgeClient(accounts.url, keys).authenticate({ apiKey: "k" }, { timeoutMs: 1_500 });
    await edgeClient(accounts.url, keys).authenticate({ apiKey: "k" });
    expect(accounts.deadlines).toEqual(["7000", "1500", null]);
  });

  it("hands the service's response header and trailer to the caller", async () => {
    const keys = generateServiceAuthKeys();
    const accounts = await startAccounts(keys);
    let header: Headers | undefined;
    let trailer: Headers | undefined;
    const answer = await edgeClient(accounts.url, keys).authenticate(
      { apiKey: "noted" },
      { onHeader: (h) => (header = h), onTrailer: (t) => (trailer = t) },
    );
    expect(answer.keyId).toBe("key_for_noted");
    expect(header?.get("x-note")).toBe("from the header");
    expect(trailer?.get("x-end")).toBe("from the trailer");
    expect(header?.has("trailer-x-end")).toBe(false);
  });

  it("when the caller cancels, then the call fails at once as cancelled, retryable for its caller", async () => {
    const keys = generateServiceAuthKeys();
    const accounts = await startAccounts(keys);
    const cancel = new AbortController();
    const call = edgeClient(accounts.url, keys).authenticate({ apiKey: "slow" }, { signal: cancel.signal });
    await expect.poll(() => accounts.seen.length).toBe(1);
    cancel.abort();
    const err = await call.catch((e: unknown) => e);
    expect(ConnectError.from(err).code).toBe(Code.Canceled);
    expect(fromConnectError(err).reason).toBe("SERVICE_UNAVAILABLE");
  });

  it("when the caller has cancelled already, then the call is never sent", async () => {
    const keys = generateServiceAuthKeys();
    const accounts = await startAccounts(keys);
    const err = await edgeClient(accounts.url, keys)
      .authenticate({ apiKey: "k" }, { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(ConnectError.from(err).code).toBe(Code.Canceled);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(accounts.seen).toHaveLength(0);
  });

  it("when nothing listens where the service should be, then the call fails as unavailable for now", async () => {
    const keys = generateServiceAuthKeys();
    const client = edgeClient(`http://127.0.0.1:${await closedPort()}`, keys);
    const err = await client.authenticate({ apiKey: "k" }).catch((e: unknown) => e);
    expect(ConnectError.from(err).code).toBe(Code.Unavailable);
    expect(fromConnectError(err).reason).toBe("SERVICE_UNAVAILABLE");
  });

  it("when the answer is larger than a service message may be, then the call fails and the next one is answered", async () => {
    const keys = generateServiceAuthKeys();
    const accounts = await startAccounts(keys);
    const client = edgeClient(accounts.url, keys);
    const err = await client.authenticate({ apiKey: "huge" }).catch((e: unknown) => e);
    expect(ConnectError.from(err).code).toBe(Code.ResourceExhausted);
    expect((await client.authenticate({ apiKey: "after" })).keyId).toBe("key_for_after");
  });

  it("when a proxy answers 503 in its own words, then the call fails as unavailable for now", async () => {
    const err = await failureFromImpostor(transportOf, (_req, res) => {
      res.writeHead(503, { "content-type": "text/html" }).end("<h1>Service Unavailable</h1>");
    });
    expect(ConnectError.from(err).code).toBe(Code.Unavailable);
    expect(fromConnectError(err).reason).toBe("SERVICE_UNAVAILABLE");
  });

  it("when something else answers 200 in a content type that is not the protocol's, then the call fails as internal", async () => {
    const err = await failureFromImpostor(transportOf, (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" }).end("hello");
    });
    expect(err).toBeInstanceOf(ConnectError);
    expect(fromConnectError(err).reason).toBe("INTERNAL");
  });

  it("when a Connect error arrives without the gateway's detail, then its code is kept", async () => {
    const err = await failureFromImpostor(transportOf, (_req, res) => {
      res
        .writeHead(429, { "content-type": "application/json" })
        .end(JSON.stringify({ code: "resource_exhausted", message: "slow down" }));
    });
    expect(ConnectError.from(err).code).toBe(Code.ResourceExhausted);
    expect(ConnectError.from(err).rawMessage).toBe("slow down");
  });
});

describe("serviceTransport, beyond Connect's transport", () => {
  const client = (url: string, keys: Record<string, string>) =>
    createClient(
      AccountsService,
      serviceTransport(url, "accounts", parseServiceAuthKeys("edge")(keys.edge!)),
    );

  it("when the connection closes before the answer ends, then the call fails as unavailable for now", async () => {
    // Connect's client calls this ABORTED, which the edge would answer with a 500.
    const err = await failureFromImpostor(serviceTransport, (_req, res) => {
      res.writeHead(200, { "content-type": "application/proto", "content-length": "100" });
      res.write(Buffer.from([0x0a, 0x05]));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    expect(ConnectError.from(err).code).toBe(Code.Unavailable);
    expect(fromConnectError(err).reason).toBe("SERVICE_UNAVAILABLE");
  });

  it("when an answered call had a signal of its own, then nothing is left listening on it", async () => {
    const keys = generateServiceAuthKeys();
    const accounts = await startAccounts(keys);
    const signal = new AbortController().signal;
    expect((await client(accounts.url, keys).authenticate({ apiKey: "k" }, { signal })).keyId).toBe(
      "key_for_k",
    );
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });
});
