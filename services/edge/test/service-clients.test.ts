import {
  createLogger,
  generateServiceAuthKeys,
  ManualClock,
  parseServiceAuthKeys,
  type RunningServer,
  startServiceServer,
} from "@gateway/platform";
import { AccountsService } from "@gateway/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEdgeApp, createServiceClients } from "../src/index.js";
import { FakeAccountsService } from "./fakes/fake-accounts-service.js";
import { SessionsUnderTest } from "./fakes/sessions-under-test.js";

/** Distributed mode in small: the edge's gRPC clients against real Connect servers on free ports. */
describe("createServiceClients", () => {
  const logger = createLogger({ service: "test", level: "silent" });
  const clock = new ManualClock();
  const accounts = new FakeAccountsService(clock);
  let accountsServer: RunningServer;
  let sessionsServer: RunningServer;
  // The servers check service tokens as the real services do: the edge's clients must carry them.
  const keys = generateServiceAuthKeys();
  const serviceAuthKeys = parseServiceAuthKeys("edge")(keys.edge);

  beforeAll(async () => {
    accountsServer = await startServiceServer({
      name: "accounts",
      port: 0,
      logger,
      auth: { target: "accounts", keys: parseServiceAuthKeys("accounts")(keys.accounts) },
      routes: (r) => r.service(AccountsService, accounts),
    });
    sessionsServer = await startServiceServer({
      name: "sessions",
      port: 0,
      logger,
      auth: { target: "sessions", keys: parseServiceAuthKeys("sessions")(keys.sessions) },
      routes: new SessionsUnderTest(clock, logger).routes,
    });
  });
  afterAll(async () => {
    await Promise.all([accountsServer.close(), sessionsServer.close()]);
  });

  it("talks gRPC to the services and reports them ready", async () => {
    const clients = createServiceClients({
      accountsUrl: accountsServer.url,
      sessionsUrl: sessionsServer.url,
      serviceAuthKeys,
    });
    for (const check of clients.readiness) await expect(check.check()).resolves.toBeUndefined();

    const app = createEdgeApp({
      ...clients,
      logger,
      clock,
      config: { errorsUrl: "http://edge.test/errors", maxBodyBytes: 1024, authCacheTtlMs: 1000 },
    });
    const { secret } = await accounts.issueKey();
    const res = await app.inject({
      method: "POST",
      url: "/api/v1/gateway/sessions/",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      payload: { merchant_reference: "grpc-1", amount: "2.000", metadata: { a: 1 } },
    });
    expect(res.statusCode).toBe(201);
    const missing = await app.inject({
      method: "GET",
      url: "/api/v1/gateway/sessions/ps_nope/",
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().type).toBe("http://edge.test/errors/not-found");
    expect((await app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
    await app.close();
  });

  it("when a service is not listening, then readiness fails and API calls answer 503", async () => {
    const clients = createServiceClients({
      accountsUrl: "http://127.0.0.1:1",
      sessionsUrl: sessionsServer.url,
      serviceAuthKeys,
    });
    await expect(clients.readiness[0]!.check()).rejects.toThrow();
    const app = createEdgeApp({
      ...clients,
      logger,
      config: { errorsUrl: "http://edge.test/errors", maxBodyBytes: 1024, authCacheTtlMs: 1000 },
    });
    const res = await app.inject({
      method: "GET",
      url: "/api/v1/gateway/sessions/list/",
      headers: { authorization: "Bearer sk_test_abc" },
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers["retry-after"]).toBe("1");
    const ready = await app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().detail).toBe("Not ready: accounts unavailable.");
    await app.close();
  });
});
