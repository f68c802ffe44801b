import http2 from "node:http2";
import net from "node:net";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import {
  AccountsService,
  AuthenticateResponseSchema,
  Health,
  HealthCheckResponse_ServingStatus as Status,
} from "@gateway/proto";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterEach, describe, expect, it } from "vitest";
import { readErrorDetail } from "../src/errors/connect-errors.js";
import { GatewayError } from "../src/errors/gateway-error.js";
import { startManagementServer } from "../src/server/management-server.js";
import { type RunningServer, startServiceServer } from "../src/server/service-server.js";
import { captureLogger } from "./capture-logger.js";

const HEALTH_PROTO = new URL("../../../proto/grpc/health/v1/health.proto", import.meta.url).pathname;

interface Started {
  server: RunningServer;
  logs: ReturnType<typeof captureLogger>;
  setReady(ready: boolean): void;
  release(): void;
}

const running: Pick<RunningServer, "close">[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** An accounts server whose Authenticate answers by key: "missing" → NOT_FOUND, "boom" → bug, "slow" → waits. */
async function start(): Promise<Started> {
  let ready = true;
  let release: () => void = () => {};
  const logs = captureLogger("accounts");
  const routes = (router: ConnectRouter) =>
    router.service(AccountsService, {
      async authenticate(req) {
        if (req.apiKey === "missing")
          throw new GatewayError("NOT_FOUND", "No API key matches.", { metadata: { id: "key_1" } });
        if (req.apiKey === "boom") throw new Error("database password=hunter2 leaked in a stack");
        if (req.apiKey === "slow") await new Promise<void>((resolve) => (release = resolve));
        return create(AuthenticateResponseSchema, { keyId: `key_for_${req.apiKey}` });
      },
    });
  const server = await startServiceServer({
    name: "accounts",
    port: 0,
    routes,
    logger: logs.logger,
    readiness: [
      {
        name: "mongo",
        async check() {
          if (!ready) throw new Error("no primary");
        },
      },
    ],
  });
  running.push(server);
  return { server, logs, setReady: (r) => (ready = r), release: () => release() };
}

function grpcJsHealthCheck(port: number, service: string): Promise<{ status: string }> {
  const def = protoLoader.loadSync(HEALTH_PROTO, { enums: String });
  const pkg = grpc.loadPackageDefinition(def) as unknown as {
    grpc: {
      health: {
        v1: {
          Health: new (
            addr: string,
            creds: grpc.ChannelCredentials,
          ) => grpc.Client & Record<string, Function>;
        };
      };
    };
  };
  const client = new pkg.grpc.health.v1.Health(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return new Promise((resolve, reject) => {
    client.Check!({ service }, (err: Error | null, res: { status: string }) => {
      client.close();
      if (err) reject(err);
      else resolve(res);
    });
  });
}

function h2Get(url: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(url);
    session.on("error", reject);
    const req = session.request({ ":path": path, ":method": "GET" });
    let body = "";
    let status = 0;
    req.on("response", (h) => (status = Number(h[":status"])));
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      session.close();
      resolve({ status, body });
    });
    req.on("error", reject);
    req.end();
  });
}

describe("service server", () => {
  it("when a Connect client calls over HTTP/1.1, then the handler answers", async () => {
    const { server } = await start();
    const client = createClient(
      AccountsService,
      createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }),
    );
    const res = await client.authenticate({ apiKey: "abc" });
    expect(res.keyId).toBe("key_for_abc");
  });

  it("when a gRPC client calls over HTTP/2 on the same port, then the handler answers", async () => {
    const { server } = await start();
    const client = createClient(AccountsService, createGrpcTransport({ baseUrl: server.url }));
    const res = await client.authenticate({ apiKey: "xyz" });
    expect(res.keyId).toBe("key_for_xyz");
  });

  it("when grpc-js asks grpc.health.v1.Health/Check, then it answers SERVING, SERVICE_UNKNOWN or NOT_SERVING", async () => {
    const { server, setReady } = await start();
    expect(await grpcJsHealthCheck(server.port, "")).toEqual({ status: "SERVING" });
    expect(await grpcJsHealthCheck(server.port, "accounts")).toEqual({ status: "SERVING" });
    expect(await grpcJsHealthCheck(server.port, "gateway.accounts.v1.AccountsService")).toEqual({
      status: "SERVING",
    });
    expect(await grpcJsHealthCheck(server.port, "payments")).toEqual({ status: "SERVICE_UNKNOWN" });
    setReady(false);
    expect(await grpcJsHealthCheck(server.port, "")).toEqual({ status: "NOT_SERVING" });
  });

  it("when a client watches health, then it gets the current status and the stream ends when the server closes", async () => {
    const { server } = await start();
    const client = createClient(Health, createGrpcTransport({ baseUrl: server.url }));
    const seen: Status[] = [];
    const watching = (async () => {
      for await (const res of client.watch({ service: "" })) {
        seen.push(res.status);
        if (seen.length === 1) void server.close();
      }
    })();
    await watching;
    expect(seen).toEqual([Status.SERVING]);
  });

  it("when /healthz is asked over HTTP/1.1 or HTTP/2, then it answers 200 ok", async () => {
    const { server } = await start();
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
    expect(await h2Get(server.url, "/healthz")).toEqual({ status: 200, body: '{"status":"ok"}' });
  });

  it("when a readiness check fails, then /readyz answers 503 naming it, and 200 once it passes", async () => {
    const { server, setReady } = await start();
    setReady(false);
    const down = await fetch(`${server.url}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ status: "unavailable", failed: ["mongo"] });
    expect((await h2Get(server.url, "/readyz")).status).toBe(503);
    setReady(true);
    const up = await fetch(`${server.url}/readyz`);
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ status: "ok" });
  });

  it("when a readiness check hangs, then /readyz answers 503 within the 2 s bound", async () => {
    const logs = captureLogger();
    const server = await startServiceServer({
      name: "hangs",
      port: 0,
      routes: () => {},
      logger: logs.logger,
      readiness: [{ name: "nats", check: () => new Promise<void>(() => {}) }],
    });
    running.push(server);
    const started = Date.now();
    const res = await fetch(`${server.url}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "unavailable", failed: ["nats"] });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("when RPCs ran, then the management listener's /metrics shows the RPC duration histogram in Prometheus text", async () => {
    const { server, logs } = await start();
    const management = await startManagementServer({ name: "accounts", port: 0, logger: logs.logger });
    running.push(management);
    const client = createClient(
      AccountsService,
      createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }),
    );
    await client.authenticate({ apiKey: "m" });
    await expect(client.authenticate({ apiKey: "missing" })).rejects.toThrow();
    // The RPC port does not serve metrics (issue 15: metrics live on the management port only).
    expect((await fetch(`${server.url}/metrics`)).status).not.toBe(200);
    const res = await fetch(`${management.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toMatch(
      /gateway_rpc_duration_seconds_count\{service="gateway.accounts.v1.AccountsService",method="Authenticate",code="ok"\} [1-9]/,
    );
    expect(text).toMatch(
      /gateway_rpc_duration_seconds_count\{service="gateway.accounts.v1.AccountsService",method="Authenticate",code="not_found"\} [1-9]/,
    );
    expect(text).toContain("process_cpu_user_seconds_total");
  });

  it("when a handler throws GatewayError NOT_FOUND, then the client gets Code.NotFound with the ErrorDetail", async () => {
    const { server } = await start();
    for (const transport of [
      createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }),
      createGrpcTransport({ baseUrl: server.url }),
    ]) {
      const err = await createClient(AccountsService, transport)
        .authenticate({ apiKey: "missing" })
        .then(
          () => undefined,
          (e: unknown) => ConnectError.from(e),
        );
      expect(err?.code).toBe(Code.NotFound);
      const detail = readErrorDetail(err!);
      expect(detail?.reason).toBe("NOT_FOUND");
      expect(detail?.domain).toBe("accounts.gateway");
      expect(detail?.metadata).toEqual({ id: "key_1" });
    }
  });

  it("when a handler fails unexpectedly, then the client gets INTERNAL without the cause and the error is logged", async () => {
    const { server, logs } = await start();
    const client = createClient(
      AccountsService,
      createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }),
    );
    const err = await client.authenticate({ apiKey: "boom" }).then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
    expect(err?.code).toBe(Code.Internal);
    expect(err?.rawMessage).toBe("Internal error.");
    expect(err?.message).not.toContain("hunter2");
    const logged = logs.lines().find((l) => l.msg === "unexpected error in RPC handler");
    expect(logged?.level).toBe(50);
  });

  it.each([
    ["Connect over HTTP/1.1", (url: string) => createConnectTransport({ baseUrl: url, httpVersion: "1.1" })],
    ["gRPC over HTTP/2", (url: string) => createGrpcTransport({ baseUrl: url })],
  ])("when a 1 MiB request arrives (%s), then the handler reads all of it", async (_, transport) => {
    const { server } = await start();
    const apiKey = "k".repeat(1024 * 1024);
    const res = await createClient(AccountsService, transport(server.url)).authenticate({ apiKey });
    expect(res.keyId).toBe(`key_for_${apiKey}`);
  });

  it("when clients keep idle connections open, then close() still finishes promptly", async () => {
    const { server } = await start();
    await createClient(
      AccountsService,
      createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }),
    ).authenticate({ apiKey: "a" });
    await createClient(AccountsService, createGrpcTransport({ baseUrl: server.url })).authenticate({
      apiKey: "b",
    });
    await grpcJsHealthCheck(server.port, "");
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it.each([
    ["Connect over HTTP/1.1", (url: string) => createConnectTransport({ baseUrl: url, httpVersion: "1.1" })],
    ["gRPC over HTTP/2", (url: string) => createGrpcTransport({ baseUrl: url })],
  ])(
    "when closed while a request is in flight (%s), then the request finishes and the port stops accepting",
    async (_, transport) => {
      const { server, release } = await start();
      const client = createClient(AccountsService, transport(server.url));
      const inFlight = client.authenticate({ apiKey: "slow" });
      await new Promise((r) => setTimeout(r, 100)); // let the request reach the handler
      let closed = false;
      const closing = server.close().then(() => (closed = true));
      await new Promise((r) => setTimeout(r, 100));
      expect(closed).toBe(false);
      release();
      expect((await inFlight).keyId).toBe("key_for_slow");
      await closing;
      const refused = await new Promise<boolean>((resolve) => {
        const socket = net.connect(server.port, "127.0.0.1");
        socket.once("connect", () => {
          socket.destroy();
          resolve(false);
        });
        socket.once("error", () => resolve(true));
      });
      expect(refused).toBe(true);
    },
  );
});
