// `npm start`: the whole gateway in one process, no external services.
import { readConfigOrExit, runService } from "@gateway/platform";
import { embeddedConfigSpec } from "./embedded-config.js";
import { startEmbeddedGateway } from "./embedded-gateway.js";

runService({
  name: "gateway",
  readConfig: () => readConfigOrExit(embeddedConfigSpec),
  // The embedded gateway starts its own telemetry.
  telemetry: false,
  async start({ config, logger, onStop }) {
    const gateway = await startEmbeddedGateway(config, logger);
    onStop("gateway", () => gateway.close());
    // Printed, not logged: the logger redacts keys, and a newcomer needs this one to try the API.
    process.stdout.write(`\nPayment gateway (embedded mode) listening on ${gateway.url}\n`);
    process.stdout.write(
      `Data is in memory only, and bounded: records older than ${formatHours(config.memoryRetentionMs)} leave it (GATEWAY_MEMORY_RETENTION). ` +
        "To keep data, run the distributed mode (npm run stack).\n",
    );
    if (gateway.demo) {
      process.stdout.write(`Demo merchant ${gateway.demo.merchantId}, test key:\nGATEWAY_DEMO_TEST_KEY=${gateway.demo.testKey}\n`);
      process.stdout.write(`Try: curl -s -H "Authorization: Bearer ${gateway.demo.testKey}" ${gateway.url}/api/v1/gateway/sessions/list/\n\n`);
    }
  },
});

function formatHours(ms: number): string {
  return ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : `${ms / 1000} s`;
}
