import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import {
  ConfigError,
  connectMongo,
  createLogger,
  initTelemetry,
  installGracefulShutdown,
  pingMongo,
  readConfig,
  startServiceServer,
  systemClock,
  tracingClientInterceptor,
} from "@gateway/platform";
import { AccountsService } from "@gateway/proto";
import { createAccountsRateProvider } from "./adapters/accounts/accounts-rate-provider.js";
import { createMongoSessionRepository } from "./adapters/mongo/mongo-session-repository.js";
import { sessionsConfigSpec, type SessionsConfig } from "./config.js";
import { createSessionsRoutes } from "./sessions-module.js";

const SERVICE_NAME = "sessions";

function loadConfig(): SessionsConfig {
  try {
    return readConfig(sessionsConfigSpec);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const telemetry = initTelemetry({ serviceName: SERVICE_NAME });
  const logger = createLogger({ service: SERVICE_NAME, level: config.logLevel });

  const mongo = await connectMongo(config.mongodbUrl, SERVICE_NAME);
  const db = mongo.db(config.mongodbDatabase);
  const repo = await createMongoSessionRepository(db);

  // gRPC over HTTP/2 (the gRPC transport always speaks HTTP/2).
  const accounts = createClient(
    AccountsService,
    createGrpcTransport({ baseUrl: config.accountsUrl, interceptors: [tracingClientInterceptor()] }),
  );

  const server = await startServiceServer({
    name: SERVICE_NAME,
    host: config.host,
    port: config.port,
    routes: createSessionsRoutes({
      repo,
      rates: createAccountsRateProvider(accounts),
      clock: systemClock,
      logger,
      config: {
        publicBaseUrl: config.publicBaseUrl,
        sessionLifetimeMs: config.sessionLifetimeMs,
        checkoutLinkLifetimeMs: config.checkoutLinkLifetimeMs,
      },
    }),
    readiness: [{ name: "mongo", check: () => pingMongo(db) }],
    logger,
  });

  installGracefulShutdown(logger, [
    { name: "server", run: () => server.close() },
    { name: "mongo", run: () => mongo.close() },
    { name: "telemetry", run: () => telemetry.shutdown() },
  ]);
}

main().catch((err: unknown) => {
  // Start-up failed (database unreachable…): say why on stderr and stop.
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`sessions failed to start: ${message}\n`);
  process.exit(1);
});
