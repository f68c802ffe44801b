import {
  createSecretBox,
  generateSecretsKey,
  ManualClock,
  pingMongo,
  type RunningServer,
  startServiceServer,
} from "@gateway/platform";
import { status as GrpcStatus } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccountsInterceptors, createAccountsRoutes } from "../src/accounts-module.js";
import { createMongoAccountsRepositories } from "../src/adapters/mongo/create-mongo-accounts-repositories.js";
import type { AccountsDeps } from "../src/app/accounts-deps.js";
import { createMerchant, verifyMerchant } from "../src/app/merchants.js";
import { createCaptureLogger } from "./support/capture-logger.js";
import { createGrpcJsClients, type GrpcJsClients, grpcErrorOf } from "./support/grpc-js-clients.js";
import { type MongoTestDatabase, openMongoTestDatabase } from "./support/mongo-test-database.js";

const PASSWORD = "gRPC-Terminal-Password-Plaintext";

describe("terminal credentials over real gRPC (grpc-js client, MongoDB store)", () => {
  let database: MongoTestDatabase;
  let server: RunningServer;
  let clients: GrpcJsClients;
  let deps: AccountsDeps;
  let logs: () => string;

  beforeAll(async () => {
    database = await openMongoTestDatabase("accounts_terminals_grpc");
    deps = {
      repos: await createMongoAccountsRepositories(database.db, {
        secretBox: createSecretBox(generateSecretsKey()),
      }),
      clock: new ManualClock(Date.now()),
    };
    const capture = createCaptureLogger();
    logs = capture.text;
    server = await startServiceServer({
      name: "accounts",
      host: "127.0.0.1",
      port: 0,
      routes: createAccountsRoutes({ ...deps, logger: capture.logger }),
      interceptors: createAccountsInterceptors(capture.logger),
      readiness: [{ name: "mongo", check: () => pingMongo(database.db) }],
      logger: capture.logger,
    });
    clients = createGrpcJsClients(`127.0.0.1:${server.port}`);
  });

  afterAll(async () => {
    clients?.close();
    await server?.close();
    await database?.dispose();
  });

  it("when a terminal is set over gRPC, then ResolveTerminalCredentials returns the decrypted password and nothing else ever shows it", async () => {
    const merchant = await createMerchant(deps, { name: "gRPC Terminal Shop" });
    await verifyMerchant(deps, merchant.id);
    const set = await clients.setTerminal({
      merchantId: merchant.id,
      livemode: true,
      baseUrl: "https://acquirer.example/payment/rest",
      username: "live-shop",
      password: PASSWORD,
      active: true,
    });
    expect(set.terminal).toMatchObject({
      merchantId: merchant.id,
      livemode: true,
      baseUrl: "https://acquirer.example/payment/rest",
      username: "live-shop",
      active: true,
    });
    expect(JSON.stringify(set)).not.toContain(PASSWORD);

    expect(
      await clients.resolveTerminalCredentials({ scope: { merchantId: merchant.id, livemode: true } }),
    ).toEqual({
      baseUrl: "https://acquirer.example/payment/rest",
      username: "live-shop",
      password: PASSWORD,
    });
    const stored = await database.db.collection("terminals").findOne({ merchantId: merchant.id });
    expect(JSON.stringify(stored)).not.toContain(PASSWORD);
    expect(logs()).toContain("terminal set");
    expect(logs()).not.toContain(PASSWORD);
  });

  it("when the scope has no terminal, then FAILED_PRECONDITION with the no-terminal message", async () => {
    const merchant = await createMerchant(deps, { name: "No Terminal Shop" });
    const err = await grpcErrorOf(
      clients.resolveTerminalCredentials({ scope: { merchantId: merchant.id, livemode: false } }),
    );
    expect(err.code).toBe(GrpcStatus.FAILED_PRECONDITION);
    expect(err.details).toBe("No test terminal is configured for this account.");
  });

  it("when the terminal is inactive, then FAILED_PRECONDITION with the inactive message", async () => {
    const merchant = await createMerchant(deps, { name: "Inactive Shop" });
    await clients.setTerminal({
      merchantId: merchant.id,
      livemode: false,
      baseUrl: "http://127.0.0.1:8080/epg/rest",
      username: "u",
      password: PASSWORD,
      active: false,
    });
    const err = await grpcErrorOf(
      clients.resolveTerminalCredentials({ scope: { merchantId: merchant.id, livemode: false } }),
    );
    expect(err.code).toBe(GrpcStatus.FAILED_PRECONDITION);
    expect(err.details).toBe("The test terminal of this account is inactive.");
  });

  it("when the stored password was sealed with another key, then INTERNAL for the caller and a log naming the key ids, not the password", async () => {
    const merchant = await createMerchant(deps, { name: "Rotated Shop" });
    const otherRun = await createMongoAccountsRepositories(database.db, {
      secretBox: createSecretBox(generateSecretsKey()),
    });
    await otherRun.terminals.upsert(
      {
        merchantId: merchant.id,
        livemode: false,
        baseUrl: "http://127.0.0.1:8080/epg/rest",
        username: "u",
        active: true,
        updatedAt: new Date(),
      },
      PASSWORD,
    );
    const err = await grpcErrorOf(
      clients.resolveTerminalCredentials({ scope: { merchantId: merchant.id, livemode: false } }),
    );
    expect(err.code).toBe(GrpcStatus.INTERNAL);
    expect(err.details).toBe("Internal error.");
    expect(logs()).toMatch(/SecretUnreadableError.*which is not configured/);
    expect(logs()).not.toContain(PASSWORD);
  });
});
