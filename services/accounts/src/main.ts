import {
  connectMongo,
  createLogger,
  initTelemetry,
  installGracefulShutdown,
  pingMongo,
  readConfigOrExit,
  startManagementServer,
  startServiceServer,
  systemClock,
} from "@gateway/platform";
import { createMongoAccountsRepositories } from "./adapters/mongo/create-mongo-accounts-repositories.js";
import { seedDemoMerchant } from "./app/seed-demo-merchant.js";
import { createAccountsInterceptors, createAccountsRoutes } from "./accounts-module.js";
import { accountsConfigSpec, demoTerminalFromConfig } from "./config.js";
import { secretBoxFromConfig } from "./secret-box-from-config.js";

const SERVICE_NAME = "accounts";


async function main(): Promise<void> {
  const config = readConfigOrExit(accountsConfigSpec);
  const telemetry = initTelemetry({ serviceName: SERVICE_NAME });
  const logger = createLogger({ service: SERVICE_NAME, level: config.logLevel });

  // Before any connection: a missing or malformed key stops the process at once.
  const secretBox = secretBoxFromConfig(config, logger);
  const mongo = await connectMongo(config.mongodbUrl, SERVICE_NAME);
  const db = mongo.db(config.mongodbDatabase);
  const repos = await createMongoAccountsRepositories(db, { secretBox });

  if (config.demo) {
    const testTerminal = demoTerminalFromConfig(config);
    const demo = await seedDemoMerchant(repos, systemClock, {
      ...(config.demoTestKey ? { testKey: config.demoTestKey } : {}),
      testTerminal,
    });
    logger.info(
      { merchantId: demo.merchantId, created: demo.created, testTerminal: demo.testTerminal, terminalBaseUrl: testTerminal.baseUrl },
      "Demo merchant ready",
    );
    // The key goes to stdout as a plain line, never through the logger (which must never carry keys).
    process.stdout.write(`GATEWAY_DEMO_TEST_KEY=${demo.testKey}\n`);
  }

  const management = await startManagementServer({ name: SERVICE_NAME, host: config.host, port: config.managementPort, logger });
  // startServiceServer logs the URL it listens on.
  const server = await startServiceServer({
    name: SERVICE_NAME,
    host: config.host,
    port: config.port,
    routes: createAccountsRoutes({ repos, clock: systemClock, logger }),
    interceptors: createAccountsInterceptors(logger),
    readiness: [{ name: "mongo", check: () => pingMongo(db) }],
    logger,
  });

  installGracefulShutdown(logger, [
    { name: "server", run: () => server.close() },
    { name: "management", run: () => management.close() },
    { name: "mongo", run: () => mongo.close() },
    { name: "telemetry", run: () => telemetry.shutdown() },
  ]);
}

main().catch((err: unknown) => {
  // Start-up failed (database unreachable, bad demo key…): say why on stderr and stop.
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`accounts failed to start: ${message}\n`);
  process.exit(1);
});
