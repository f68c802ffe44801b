import { create } from "@bufbuild/protobuf";
import { type ConnectRouter, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { AccountsService, AuthenticateResponseSchema } from "@gateway/proto";
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-node";
import Fastify from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../src/logger.js";
import { type RunningServer, startServiceServer } from "../src/server/service-server.js";
import {
  generateServiceAuthKeys,
  parseServiceAuthKeys,
  serviceTransport,
} from "../src/service-auth/index.js";
import { registerFastifyTracing } from "../src/telemetry/fastify-tracing.js";
import { tracingClientInterceptor } from "../src/telemetry/rpc-tracing.js";
import { initTelemetry, type Telemetry } from "../src/telemetry/tracing.js";

const exporter = new InMemorySpanExporter();
let telemetry: Telemetry;
let server: RunningServer;
/** Trace id the handler saw as active, to prove it ran inside the server span. */
let handlerTraceId: string | undefined;

beforeAll(async () => {
  telemetry = initTelemetry({ serviceName: "tracing-test", exporter });
  const routes = (router: ConnectRouter) =>
    router.service(AccountsService, {
      async authenticate(req) {
        handlerTraceId = trace.getActiveSpan()?.spanContext().traceId;
        return create(AuthenticateResponseSchema, { keyId: req.apiKey });
      },
    });
  server = await startServiceServer({
    name: "accounts",
    port: 0,
    routes,
    logger: createLogger({ service: "t", level: "silent" }),
  });
});
afterAll(async () => {
  await server.close();
  await telemetry.shutdown();
});
beforeEach(() => {
  exporter.reset();
  handlerTraceId = undefined;
});

const byKind = (spans: ReadableSpan[], kind: SpanKind) => spans.filter((s) => s.kind === kind);

describe("tracing", () => {
  it.each([
    [
      "Connect over HTTP/1.1",
      () =>
        createConnectTransport({
          baseUrl: server.url,
          httpVersion: "1.1",
          interceptors: [tracingClientInterceptor()],
        }),
    ],
    [
      "gRPC over HTTP/2",
      () => createGrpcTransport({ baseUrl: server.url, interceptors: [tracingClientInterceptor()] }),
    ],
    [
      // Our own client to our own handler of Connect's binary unary calls.
      "the gateway's service call",
      () =>
        serviceTransport(
          server.url,
          "accounts",
          parseServiceAuthKeys("edge")(generateServiceAuthKeys().edge!),
        ),
    ],
  ])(
    "when a traced client calls a service (%s), then client and server spans share one trace and the server's parent is the client",
    async (_, transport) => {
      await createClient(AccountsService, transport()).authenticate({ apiKey: "k" });
      const spans = exporter.getFinishedSpans();
      const [client] = byKind(spans, SpanKind.CLIENT);
      const [srv] = byKind(spans, SpanKind.SERVER);
      expect(client?.name).toBe("rpc gateway.accounts.v1.AccountsService/Authenticate");
      expect(srv?.name).toBe("rpc gateway.accounts.v1.AccountsService/Authenticate");
      expect(srv!.spanContext().traceId).toBe(client!.spanContext().traceId);
      expect(srv!.parentSpanContext?.spanId).toBe(client!.spanContext().spanId);
      expect(handlerTraceId).toBe(client!.spanContext().traceId);
    },
  );

  it("when a fastify route calls a service, then HTTP span → client span → server span form one trace", async () => {
    const app = Fastify();
    registerFastifyTracing(app);
    const client = createClient(
      AccountsService,
      createGrpcTransport({ baseUrl: server.url, interceptors: [tracingClientInterceptor()] }),
    );
    app.post("/api/things/:id", async (req) => {
      const res = await client.authenticate({ apiKey: (req.params as { id: string }).id });
      return { keyId: res.keyId };
    });
    const base = await app.listen({ host: "127.0.0.1", port: 0 });
    try {
      const res = await fetch(`${base}/api/things/t1`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ some: "body" }),
      });
      expect(await res.json()).toEqual({ keyId: "t1" });
    } finally {
      await app.close();
    }
    const spans = exporter.getFinishedSpans();
    const http = spans.find((s) => s.name === "POST /api/things/:id");
    const rpcClient = byKind(spans, SpanKind.CLIENT)[0];
    const rpcServer = spans.find((s) => s.kind === SpanKind.SERVER && s.name.startsWith("rpc "));
    expect(http?.kind).toBe(SpanKind.SERVER);
    expect(http?.attributes["http.response.status_code"]).toBe(200);
    expect(http?.attributes["http.route"]).toBe("/api/things/:id");
    // Parsing the JSON body resumes outside the request's async scope: the handler still runs
    // in the request's context, so the gRPC call is the HTTP span's child.
    expect(rpcClient?.parentSpanContext?.spanId).toBe(http!.spanContext().spanId);
    expect(rpcServer?.parentSpanContext?.spanId).toBe(rpcClient!.spanContext().spanId);
    // One span per request: no handler or hook spans beside it.
    const trace = spans.filter((s) => s.spanContext().traceId === http!.spanContext().traceId);
    expect(trace.map((s) => s.name).sort()).toEqual([http!.name, rpcClient!.name, rpcServer!.name].sort());
  });

  it("when a request carries a traceparent, then the HTTP span continues that trace", async () => {
    const app = Fastify();
    registerFastifyTracing(app);
    app.get("/ping", async () => ({ ok: true }));
    await app.ready();
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    await app.inject({
      method: "GET",
      url: "/ping",
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    await app.close();
    const http = exporter.getFinishedSpans().find((s) => s.name === "GET /ping");
    expect(http?.spanContext().traceId).toBe(traceId);
    expect(http?.parentSpanContext?.spanId).toBe("00f067aa0ba902b7");
  });

  it("when the client goes away before the answer, then the request's span still ends, marked as an error", async () => {
    const app = Fastify();
    registerFastifyTracing(app);
    let received!: () => void;
    const requestArrived = new Promise<void>((resolve) => {
      received = resolve;
    });
    let answer!: () => void;
    app.get("/slow", async () => {
      received();
      await new Promise<void>((resolve) => {
        answer = resolve;
      });
      return { ok: true };
    });
    const base = await app.listen({ host: "127.0.0.1", port: 0 });
    const abort = new AbortController();
    const call = fetch(`${base}/slow`, { signal: abort.signal }).catch(() => undefined);
    await requestArrived;
    abort.abort();
    await call;
    try {
      for (let i = 0; i < 200 && !exporter.getFinishedSpans().some((s) => s.name === "GET /slow"); i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const http = exporter.getFinishedSpans().find((s) => s.name === "GET /slow");
      expect(http?.status).toEqual({ code: SpanStatusCode.ERROR, message: "request aborted" });
    } finally {
      answer();
      await app.close();
    }
  });
});
