import {
  createLogger,
  createSecretBox,
  generateSecretsKey,
  ManualClock,
  pingMongo,
  type RunningServer,
  startServiceServer,
} from "@gateway/platform";
import { status as GrpcStatus } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccountsRoutes } from "../src/accounts-module.js";
import { createMongoAccountsRepositories } from "../src/adapters/mongo/create-mongo-accounts-repositories.js";
import type { AccountsDeps } from "../src/app/accounts-deps.js";
import { createApiKey, revokeApiKey } from "../src/app/api-keys.js";
import { createMerchant, verifyMerchant } from "../src/app/merchants.js";
import { createGrpcJsClients, type GrpcJsClients, grpcErrorOf } from "./support/grpc-js-clients.js";
import { type MongoTestDatabase, openMongoTestDatabase } from "./support/mongo-test-database.js";

describe("accounts over real gRPC (grpc-js client, MongoDB store)", () => {
  let database: MongoTestDatabase;
  let server: RunningServer;
  let clients: GrpcJsClients;
  let deps: AccountsDeps;

  beforeAll(async () => {
    database = await openMongoTestDatabase("accounts_grpc");
    const secretBox = createSecretBox(generateSecretsKey());
    deps = {
      repos: await createMongoAccountsRepositories(database.db, { secretBox }),
      clock: new ManualClock(Date.now()),
    };
    const logger = createLogger({ service: "accounts-test", level: "silent" });
    server = await startServiceServer({
      name: "accounts",
      host: "127.0.0.1",
      port: 0,
      routes: createAccountsRoutes({ ...deps, logger }),
      readiness: [{ name: "mongo", check: () => pingMongo(database.db) }],
      logger,
    });
    clients = createGrpcJsClients(`127.0.0.1:${server.port}`);
  });

  afterAll(async () => {
    clients?.close();
    await server?.close();
    await database?.dispose();
  });

  it("when a test key is presented, then Authenticate answers the merchant in test mode", async () => {
    const merchant = await createMerchant(deps, { name: "gRPC Shop" });
    const { apiKey, secret } = await createApiKey(deps, { merchantId: merchant.id, livemode: false });
    expect(await clients.authenticate({ apiKey: secret })).toEqual({
      scope: { merchantId: merchant.id, livemode: false },
      keyId: apiKey.id,
      // A key without an expiry (the field was added for the edge's cache, issue 15 item 5).
      expiresAt: null,
    });
  });

  it("when a live key of a verified merchant is presented, then Authenticate answers live mode", async () => {
    const merchant = await createMerchant(deps, { name: "Live Shop" });
    await verifyMerchant(deps, merchant.id);
    const { secret } = await createApiKey(deps, { merchantId: merchant.id, livemode: true });
    expect((await clients.authenticate({ apiKey: secret })).scope).toEqual({
      merchantId: merchant.id,
      livemode: true,
    });
  });

  it("when malformed, unknown or revoked keys are presented, then each is UNAUTHENTICATED with the same message", async () => {
    const merchant = await createMerchant(deps, { name: "Revoking Shop" });
    const { apiKey, secret } = await createApiKey(deps, { merchantId: merchant.id, livemode: false });
    await revokeApiKey(deps, apiKey.id);
    for (const key of ["garbage", `sk_test_${"Z".repeat(44)}`, secret]) {
      const err = await grpcErrorOf(clients.authenticate({ apiKey: key }));
      expect(err.code).toBe(GrpcStatus.UNAUTHENTICATED);
      expect(err.details).toBe("Invalid API key.");
    }
  });

  it("when the overall health is checked, then it is SERVING while MongoDB answers", async () => {
    expect(await clients.healthCheck({ service: "" })).toEqual({ status: "SERVING" });
  });

  it("when the health of AccountsService is checked by name, then it is SERVING", async () => {
    expect(await clients.healthCheck({ service: "gateway.accounts.v1.AccountsService" })).toEqual({
      status: "SERVING",
    });
  });

  it("when the health of an unknown service is checked, then it is SERVICE_UNKNOWN", async () => {
    expect(await clients.healthCheck({ service: "no.such.Service" })).toEqual({ status: "SERVICE_UNKNOWN" });
  });
});
