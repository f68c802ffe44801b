// `npm start`: the whole gateway in one process, no external services.
import { createLogger, installGracefulShutdown, readConfigOrExit } from "@gateway/platform";
import { embeddedConfigSpec } from "./embedded-config.js";
import { startEmbeddedGateway } from "./embedded-gateway.js";

async function main(): Promise<void> {
  const config = readConfigOrExit(embeddedConfigSpec);
  const logger = createLogger({ service: "gateway", level: config.logLevel });
  const gateway = await startEmbeddedGateway(config, logger);
  installGracefulShutdown(logger, [{ name: "http", run: () => gateway.close() }]);
  // Printed, not logged: the logger redacts keys, and a newcomer needs this one to try the API.
  process.stdout.write(`\nPayment gateway (embedded mode) listening on ${gateway.url}\n`);
  process.stdout.write(`Prometheus metrics: ${gateway.managementUrl}/metrics\n`);
  if (gateway.demo) {
    process.stdout.write(`Demo merchant ${gateway.demo.merchantId}, test key:\nGATEWAY_DEMO_TEST_KEY=${gateway.demo.testKey}\n`);
    process.stdout.write(`Try: curl -s -H "Authorization: Bearer ${gateway.demo.testKey}" ${gateway.url}/api/v1/gateway/sessions/list/\n\n`);
  }
}

main().catch((err) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
