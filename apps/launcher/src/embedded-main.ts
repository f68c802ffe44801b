// `npm start`: the whole gateway in one process; in memory, or durable with MONGODB_URL (and NATS_URL).
import { readConfigOrExit, runService } from "@gateway/platform";
import { embeddedConfigSpec } from "./embedded-config.js";
import { type EmbeddedGateway, startEmbeddedGateway } from "./embedded-gateway.js";

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
    process.stdout.write(`Prometheus metrics: ${gateway.managementUrl}/metrics\n`);
    process.stdout.write(`${storageBanner(gateway.storage, config.memoryRetentionMs)}\n`);
    if (gateway.demo) {
      process.stdout.write(
        `Demo merchant ${gateway.demo.merchantId}, test key:\nGATEWAY_DEMO_TEST_KEY=${gateway.demo.testKey}\n`,
      );
      process.stdout.write(
        `Try: curl -s -H "Authorization: Bearer ${gateway.demo.testKey}" ${gateway.url}/api/v1/gateway/sessions/list/\n\n`,
      );
    }
  },
});

function storageBanner(storage: EmbeddedGateway["storage"], memoryRetentionMs: number): string {
  switch (storage) {
    case "memory":
      return (
        "Data is kept in memory only: everything is lost when this process stops. Records older than " +
        `${formatHours(memoryRetentionMs)} leave it sooner (GATEWAY_MEMORY_RETENTION). Set MONGODB_URL to keep data.`
      );
    case "mongodb":
      return "Data is kept in MongoDB (MONGODB_URL); events pass in-process from the outboxes stored there.";
    case "mongodb+nats":
      return "Data is kept in MongoDB (MONGODB_URL); events go through NATS JetStream (NATS_URL).";
  }
}

function formatHours(ms: number): string {
  return ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : `${ms / 1000} s`;
}
