import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { simulatorTerminalBaseUrl } from "@gateway/acquirer";
import { createEpgSimulator, type ListeningSimulator } from "@gateway/epg-simulator";
import {
  connectNats,
  createJetStreamEventBus,
  createLogger,
  type EventBus,
  ensureEventsStream,
  GatewayError,
  generateServiceAuthKeys,
  mintServiceToken,
  type NatsConnection,
  parseServiceAuthKeys,
  type ReceivedEvent,
  type RunningServer,
  readErrorDetail,
  serviceTokenInterceptor,
  startServiceServer,
  systemClock,
} from "@gateway/platform";
import {
  AccountsService,
  CheckoutState,
  SessionEventSchema,
  SessionService,
  SessionStatus,
  SettlementSource,
} from "@gateway/proto";
import {
  createTestDb,
  freePort,
  type ManagedProcess,
  startProcess,
  type TestDb,
  waitFor,
} from "@gateway/testkit";
import { status as GrpcStatus } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payOnCardPage } from "./support/card-page.js";
import { createRawSessionsClients, grpcStatusOf } from "./support/grpc-js-raw-clients.js";

const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url));
const PUBLIC_URL = "https://pay.example.test";
// Service credentials of this test's stack: the test calls sessions as the edge (or as refunds),
// the stand-in accounts checks that sessions calls it with its own.
const keys = generateServiceAuthKeys();
const edgeKeys = parseServiceAuthKeys("edge")(keys.edge);
const refundsKeys = parseServiceAuthKeys("refunds")(keys.refunds);
const asEdge = (baseUrl: string): Transport =>
  createGrpcTransport({
    baseUrl,
    interceptors: [serviceTokenInterceptor(edgeKeys, "sessions", systemClock)],
  });

describe("sessions as its own process", () => {
  let accounts: RunningServer;
  let simulator: ListeningSimulator;
  let stopSimulator: () => void;
  let testDb: TestDb;
  let sessions: ManagedProcess | undefined;
  let url: string;
  let nc: NatsConnection;
  let bus: EventBus;
  let durable: string;
  const received: ReceivedEvent[] = [];

  beforeAll(async () => {
    const sim = createEpgSimulator();
    simulator = await sim.listen(0);
    stopSimulator = () => sim.stop();
    const terminal = {
      baseUrl: simulatorTerminalBaseUrl(simulator.url),
      username: "sim-merchant",
      password: "sim-password",
    };
    // A stand-in accounts service over real gRPC: one rate, the simulator's terminal, a fee plan.
    accounts = await startServiceServer({
      name: "accounts",
      port: 0,
      auth: { target: "accounts", keys: parseServiceAuthKeys("accounts")(keys.accounts) },
      logger: createLogger({ service: "accounts-stub", level: "silent" }),
      routes: (router) => {
        router.service(AccountsService, {
          async getExchangeRate(req) {
            if (req.currency !== "EUR")
              throw new GatewayError("NOT_FOUND", `No exchange rate is configured for ${req.currency}.`);
            return { currency: "EUR", rate: "3.400000" };
          },
          async resolveTerminalCredentials(req) {
            if (req.scope?.merchantId === "mer_no_terminal")
              throw new GatewayError(
                "NO_TERMINAL_CONFIGURED",
                "The account has no acquirer terminal configured.",
              );
            return terminal;
          },
          async getFeePlan(req) {
            return { feePlan: { merchantId: req.merchantId, percent: "1.5", fixed: "0.100" } };
          },
          async getMerchant(req) {
            return { merchant: { id: req.merchantId, name: "Process Shop", verified: true } };
          },
        });
      },
    });

    nc = await connectNats(process.env.NATS_URL!, "sessions-process-test");
    await ensureEventsStream(nc);
    bus = await createJetStreamEventBus({ nc });
    durable = `sessions_process_${randomBytes(6).toString("hex")}`;
    await bus.subscribe({
      durable,
      subjects: ["gateway.events.session.succeeded"],
      handler: async (e) => {
        received.push(e);
        return "ack";
      },
    });

    testDb = await createTestDb("sessions_proc");
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    sessions = await startProcess({
      name: "sessions",
      entry: MAIN,
      env: {
        PORT: String(port),
        MONGODB_URL: process.env.MONGODB_URL!,
        MONGODB_DATABASE: testDb.db.databaseName,
        NATS_URL: process.env.NATS_URL!,
        ACCOUNTS_URL: accounts.url,
        GATEWAY_SERVICE_AUTH_KEYS: keys.sessions,
        GATEWAY_GRPC_REFLECTION: "true",
        GATEWAY_PUBLIC_URL: PUBLIC_URL,
        GATEWAY_ACQUIRER_TIMEOUT: "5s",
        LOG_LEVEL: "warn",
      },
      readyUrl: `${url}/readyz`,
      timeoutMs: 60_000,
    });
  }, 120_000);

  afterAll(async () => {
    await sessions?.stop();
    await accounts?.close();
    await simulator?.close();
    stopSimulator?.();
    await bus?.close();
    await nc?.request(`$JS.API.CONSUMER.DELETE.GATEWAY_EVENTS.${durable}`).catch(() => undefined);
    await nc?.drain();
    await testDb?.drop();
  });

  it("when a EUR session is created over gRPC, then the rate comes from accounts and the session is stored", async () => {
    const client = createClient(SessionService, asEdge(url));
    const scope = { merchantId: "mer_process", livemode: false };
    const res = await client.createSession({
      scope,
      merchantReference: "proc-1",
      amount: "10.00",
      currency: "EUR",
    });
    expect(res.session).toMatchObject({
      amount: "34.000",
      currency: "TND",
      original: { amount: "10.00", currency: "EUR", rate: "3.400000" },
    });
    expect(res.session!.checkoutUrl).toMatch(/^https:\/\/pay\.example\.test\/checkout\//);
    expect((await client.getSession({ scope, sessionId: res.session!.id })).session).toEqual(res.session);
    const unsupported = await client
      .createSession({ scope, merchantReference: "proc-2", amount: "10.00", currency: "USD" })
      .catch((e: unknown) => e);
    expect(unsupported).toBeInstanceOf(ConnectError);
    expect((unsupported as ConnectError).code).toBe(Code.InvalidArgument);
    expect(
      readErrorDetail(unsupported as ConnectError)?.fieldViolations.map((v) => [v.field, v.code]),
    ).toEqual([["currency", "currency_unsupported"]]);
  });

  it("when a buyer pays over gRPC, then the session succeeds with accounts' fee plan and session.succeeded reaches JetStream", async () => {
    const client = createClient(SessionService, asEdge(url));
    const scope = { merchantId: "mer_process", livemode: false };
    const { session } = await client.createSession({
      scope,
      merchantReference: "proc-pay",
      amount: "34.000",
    });
    const token = session!.checkoutUrl.split("/").at(-1)!;

    const view = await client.getCheckout({ token });
    expect(view).toMatchObject({
      merchantName: "Process Shop",
      state: CheckoutState.PAYABLE,
      attemptsLeft: 3,
    });

    const started = await client.startPayment({ token, language: "en" });
    const page = await payOnCardPage(started.redirectUrl, { number: "5555555555554444" });
    expect(page.location.startsWith(`${PUBLIC_URL}/checkout/return?`)).toBe(true);
    const settled = await client.settleAttempt({
      acquirerOrderId: page.orderId,
      source: SettlementSource.RETURN,
    });
    // 34.000 * 1.5 % = 0.510, + 0.100.
    expect(settled.attempt).toMatchObject({
      id: started.attemptId,
      cardBrand: "mastercard",
      cardLastFour: "4444",
      feeAmount: "0.610",
      netAmount: "33.390",
    });
    expect(settled.session?.status).toBe(SessionStatus.SUCCEEDED);
    expect(settled.redirectUrl).toBe(`${PUBLIC_URL}/checkout/${token}`);

    const event = await waitFor(
      () =>
        received
          .map((e) => fromBinary(SessionEventSchema, e.data))
          .find((e) => e.session?.id === session!.id),
      { timeoutMs: 15_000, message: "session.succeeded to reach JetStream" },
    );
    expect(event).toMatchObject({
      eventType: "session.succeeded",
      sequence: 1n,
      payment: { cardBrand: "mastercard", feeAmount: "0.610", netAmount: "33.390" },
    });
  });

  // Issue 15 item 10: the merchant hears it at create (it used to be a 201, and StartPayment failed).
  it("when the merchant has no terminal, then CreateSession fails with NO_TERMINAL_CONFIGURED", async () => {
    const client = createClient(SessionService, asEdge(url));
    const err = await client
      .createSession({
        scope: { merchantId: "mer_no_terminal", livemode: false },
        merchantReference: "proc-nt",
        amount: "1.000",
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.FailedPrecondition);
    expect(readErrorDetail(err as ConnectError)?.reason).toBe("NO_TERMINAL_CONFIGURED");
  });

  describe("service authentication (a plain grpc-js client, as anyone on the network would call)", () => {
    const scope = { merchantId: "mer_process", livemode: false };
    const token = (o: { caller: string; audience: string; key: Buffer }) =>
      mintServiceToken({ ...o, nowMs: Date.now() });
    const refundsKey = refundsKeys.outgoing.get("sessions")!;

    it("when a call carries no credentials, then it is refused UNAUTHENTICATED, whatever the scope", async () => {
      const raw = createRawSessionsClients(`127.0.0.1:${new URL(url).port}`);
      try {
        expect(await grpcStatusOf(raw.sessions("GetSession", { scope, sessionId: "ps_any" }))).toBe(
          GrpcStatus.UNAUTHENTICATED,
        );
        expect(await grpcStatusOf(raw.sessions("CancelSession", { scope, sessionId: "ps_any" }))).toBe(
          GrpcStatus.UNAUTHENTICATED,
        );
        expect(await grpcStatusOf(raw.sessions("ListSessions", { scope }, "not-a-token"))).toBe(
          GrpcStatus.UNAUTHENTICATED,
        );
      } finally {
        raw.close();
      }
    });

    it("when a token is signed with another service's key, addressed elsewhere or expired, then it is UNAUTHENTICATED", async () => {
      const raw = createRawSessionsClients(`127.0.0.1:${new URL(url).port}`);
      try {
        const list = (t: string) => grpcStatusOf(raw.sessions("ListSessions", { scope }, t));
        // refunds' key, claiming to be the edge.
        expect(await list(token({ caller: "edge", audience: "sessions", key: refundsKey }))).toBe(
          GrpcStatus.UNAUTHENTICATED,
        );
        // The edge's valid token for accounts, replayed against sessions.
        expect(
          await list(
            token({ caller: "edge", audience: "accounts", key: edgeKeys.outgoing.get("accounts")! }),
          ),
        ).toBe(GrpcStatus.UNAUTHENTICATED);
        // A service sessions accepts no calls from (webhooks), with a key of its own making.
        expect(await list(token({ caller: "webhooks", audience: "sessions", key: randomBytes(32) }))).toBe(
          GrpcStatus.UNAUTHENTICATED,
        );
        const stale = mintServiceToken({
          caller: "edge",
          audience: "sessions",
          key: edgeKeys.outgoing.get("sessions")!,
          nowMs: Date.now() - 10 * 60_000,
        });
        expect(await list(stale)).toBe(GrpcStatus.UNAUTHENTICATED);
      } finally {
        raw.close();
      }
    });

    it("when refunds calls a method outside its grant, then it is PERMISSION_DENIED; GetSession, its grant, is served", async () => {
      const created = await createClient(SessionService, asEdge(url)).createSession({
        scope,
        merchantReference: "auth-grant",
        amount: "1.000",
      });
      const raw = createRawSessionsClients(`127.0.0.1:${new URL(url).port}`);
      try {
        const asRefunds = token({ caller: "refunds", audience: "sessions", key: refundsKey });
        expect(
          await grpcStatusOf(
            raw.sessions("CancelSession", { scope, sessionId: created.session!.id }, asRefunds),
          ),
        ).toBe(GrpcStatus.PERMISSION_DENIED);
        expect(await grpcStatusOf(raw.sessions("ListSessions", { scope }, asRefunds))).toBe(
          GrpcStatus.PERMISSION_DENIED,
        );
        const read = (await raw.sessions(
          "GetSession",
          { scope, sessionId: created.session!.id },
          asRefunds,
        )) as { session: { id: string; merchantReference: string } };
        expect([read.session.id, read.session.merchantReference]).toEqual([
          created.session!.id,
          "auth-grant",
        ]);
      } finally {
        raw.close();
      }
    });

    it("when health is asked without credentials, then it answers: probes stay open", async () => {
      const raw = createRawSessionsClients(`127.0.0.1:${new URL(url).port}`);
      try {
        expect((await raw.health({ service: "" })).status).toBe("SERVING");
      } finally {
        raw.close();
      }
    });

    it("when reflection is on, then a reflection client lists the services and gets SessionService's file with its imports", async () => {
      const raw = createRawSessionsClients(`127.0.0.1:${new URL(url).port}`);
      try {
        const [listed, file, missing] = await raw.reflect([
          { listServices: "" },
          { fileContainingSymbol: "gateway.sessions.v1.SessionService" },
          { fileContainingSymbol: "gateway.nope.v1.Nothing" },
        ]);
        expect(listed!.listServicesResponse!.service.map((s) => s.name).sort()).toEqual([
          "gateway.sessions.v1.SessionService",
          "grpc.health.v1.Health",
          "grpc.reflection.v1.ServerReflection",
        ]);
        const files = file!.fileDescriptorResponse!.fileDescriptorProto.map((bytes) =>
          fromBinary(FileDescriptorProtoSchema, bytes),
        );
        expect(files[0]!.name).toBe("gateway/sessions/v1/sessions.proto");
        expect(files[0]!.service[0]!.method.map((m) => m.name)).toContain("CancelSession");
        // Every import the service's file names is in the answer, so a client can build the whole schema.
        expect(files.map((f) => f.name)).toEqual(expect.arrayContaining(files[0]!.dependency));
        expect(missing!.errorResponse?.errorCode).toBe(GrpcStatus.NOT_FOUND);
      } finally {
        raw.close();
      }
    });
  });

  it("when it is told to stop, then it shuts down cleanly", async () => {
    const running = sessions!;
    sessions = undefined;
    await running.stop();
    expect(await running.exited).toBe(0);
  });
});
