import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter, createClient, type Interceptor } from "@connectrpc/connect";
import { AccountsService, AuthenticateResponseSchema } from "@gateway/proto";
import { afterEach, describe, expect, it } from "vitest";
import { fromConnectError } from "../src/errors/connect-errors.js";
import { GatewayError } from "../src/errors/gateway-error.js";
import { type RunningServer, startServiceServer } from "../src/server/service-server.js";
import {
  generateServiceAuthKeys,
  parseServiceAuthKeys,
  serviceTransport,
} from "../src/service-auth/index.js";
import { captureLogger } from "./capture-logger.js";

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/**
 * An accounts server behind service authentication that notes the content type and the token of
 * each call it lets through: "missing" is NOT_FOUND, "slow" never answers. `port` 0 (the default)
 * is a free one.
 */
async function startAccounts(keys: Record<string, string>, o: { port?: number } = {}) {
  const seen: Array<{ contentType: string | null; caller: string | null }> = [];
  const note: Interceptor = (next) => (req) => {
    seen.push({ contentType: req.header.get("content-type"), caller: req.header.get("authorization") });
    return next(req);
  };
  const routes = (router: ConnectRouter) =>
    router.service(AccountsService, {
      async authenticate(req) {
        if (req.apiKey === "missing")
          throw new GatewayError("NOT_FOUND", "No API key matches.", { metadata: { id: "key_1" } });
        if (req.apiKey === "slow") await new Promise(() => undefined);
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
  return { url: `http://127.0.0.1:${server.port}`, port: server.port, server, seen };
}

/** The edge's client of accounts over serviceTransport, signing with the edge's key of `keys`. */
function edgeClient(url: string, keys: Record<string, string>, o: { defaultTimeoutMs?: number } = {}) {
  return createClient(
    AccountsService,
    serviceTransport(url, "accounts", parseServiceAuthKeys("edge")(keys.edge!), o),
  );
}

// docs/decisions.md#services-call-each-other-with-the-connect-protocol
describe("serviceTransport", () => {
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

  // Over HTTP/1.1 with today's drain this call fails with EPIPE: the client reuses a connection
  // the old process closed (docs/decisions.md#services-call-each-other-with-the-connect-protocol).
  it("when the service restarts on its address, then the next call reaches the new process", async () => {
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
});
