import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { GatewayError, createLogger, readErrorDetail, startServiceServer, type RunningServer } from "@gateway/platform";
import { AccountsService, SessionService } from "@gateway/proto";
import { createTestDb, freePort, startProcess, type ManagedProcess, type TestDb } from "@gateway/testkit";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url));

describe("sessions as its own process", () => {
  let accounts: RunningServer;
  let testDb: TestDb;
  let sessions: ManagedProcess | undefined;
  let url: string;

  beforeAll(async () => {
    // A stand-in accounts service that knows one rate, over real gRPC.
    accounts = await startServiceServer({
      name: "accounts",
      port: 0,
      logger: createLogger({ service: "accounts-stub", level: "silent" }),
      routes: (router) => {
        router.service(AccountsService, {
          async getExchangeRate(req) {
            if (req.currency !== "EUR") throw new GatewayError("NOT_FOUND", `No exchange rate is configured for ${req.currency}.`);
            return { currency: "EUR", rate: "3.400000" };
          },
        });
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
        ACCOUNTS_URL: accounts.url,
        GATEWAY_PUBLIC_URL: "https://pay.example.test",
        LOG_LEVEL: "warn",
      },
      readyUrl: `${url}/readyz`,
      timeoutMs: 60_000,
    });
  }, 120_000);

  afterAll(async () => {
    await sessions?.stop();
    await accounts?.close();
    await testDb?.drop();
  });

  it("when a EUR session is created over gRPC, then the rate comes from accounts and the session is stored", async () => {
    const client = createClient(SessionService, createGrpcTransport({ baseUrl: url }));
    const scope = { merchantId: "mer_process", livemode: false };
    const res = await client.createSession({ scope, merchantReference: "proc-1", amount: "10.00", currency: "EUR" });
    expect(res.session).toMatchObject({ amount: "34.000", currency: "TND", original: { amount: "10.00", currency: "EUR", rate: "3.400000" } });
    expect(res.session!.checkoutUrl).toMatch(/^https:\/\/pay\.example\.test\/checkout\//);
    expect((await client.getSession({ scope, sessionId: res.session!.id })).session).toEqual(res.session);
    const unsupported = await client.createSession({ scope, merchantReference: "proc-2", amount: "10.00", currency: "USD" }).catch((e: unknown) => e);
    expect(unsupported).toBeInstanceOf(ConnectError);
    expect((unsupported as ConnectError).code).toBe(Code.InvalidArgument);
    expect(readErrorDetail(unsupported as ConnectError)?.fieldViolations.map((v) => [v.field, v.code])).toEqual([["currency", "currency_unsupported"]]);
  });

  it("when it is told to stop, then it shuts down cleanly", async () => {
    const running = sessions!;
    sessions = undefined;
    await running.stop();
    expect(await running.exited).toBe(0);
  });
});
