import { pingMongo, readConfigOrExit, runService, serveGrpcService, systemClock } from "@gateway/platform";
import { createAccountsInterceptors, createAccountsRoutes } from "./accounts-module.js";
import { createMongoAccountsRepositories } from "./adapters/mongo/create-mongo-accounts-repositories.js";
import { seedDemoMerchant } from "./app/seed-demo-merchant.js";
import { accountsConfigSpec, demoTerminalFromConfig } from "./config.js";
import { secretBoxFromConfig } from "./secret-box-from-config.js";

runService({
  name: "accounts",
  readConfig: () => readConfigOrExit(accountsConfigSpec),
  async start({ config, logger, onStop, mongo }) {
    // Before any connection: a missing or malformed key stops the process at once.
    const secretBox = secretBoxFromConfig(config, logger);
    const { db } = await mongo(config.mongodbUrl, config.mongodbDatabase);
    const repos = await createMongoAccountsRepositories(db, { secretBox });

    if (config.demo) {
      const testTerminal = demoTerminalFromConfig(config);
      const demo = await seedDemoMerchant(repos, systemClock, {
        ...(config.demoTestKey ? { testKey: config.demoTestKey } : {}),
        testTerminal,
      });
      logger.info(
        {
          merchantId: demo.merchantId,
          created: demo.created,
          testTerminal: demo.testTerminal,
          terminalBaseUrl: testTerminal.baseUrl,
        },
        "Demo merchant ready",
      );
      // The key goes to stdout as a plain line, never through the logger (which must never carry keys).
      process.stdout.write(`GATEWAY_DEMO_TEST_KEY=${demo.testKey}\n`);
    }

    await serveGrpcService(
      { logger, onStop },
      {
        name: "accounts",
        config,
        routes: createAccountsRoutes({ repos, clock: systemClock, logger }),
        interceptors: createAccountsInterceptors(logger),
        readiness: [{ name: "mongo", check: () => pingMongo(db) }],
      },
    );
  },
});
