// `npm run stack`: distributed mode on this machine. Every service is its own process talking
// gRPC; MongoDB wire server and NATS are started locally unless MONGODB_URL / NATS_URL are given.
// Every child holds a pipe from this process (or, for the Go servers, a watchdog does): when this
// process dies in any way, SIGKILL included, the children go with it.
import { parse, readConfigOrExit, runService, shutdownConfigSpec } from "@gateway/platform";
import { startDistributedGateway } from "./distributed-gateway.js";

const stackConfigSpec = {
  port: { env: "PORT", description: "Edge HTTP port", default: "8080", parse: parse.port },
  mongodbUrl: { env: "MONGODB_URL", description: "MongoDB wire server", optional: true, parse: parse.string },
  natsUrl: { env: "NATS_URL", description: "NATS server", optional: true, parse: parse.string },
  logLevel: { env: "LOG_LEVEL", description: "pino log level", default: "info", parse: parse.string },
  // The launcher waits for its children, which have this long each: give it more.
  shutdownTimeoutMs: {
    ...shutdownConfigSpec.shutdownTimeoutMs,
    env: "GATEWAY_STACK_SHUTDOWN_TIMEOUT",
    default: "60s",
  },
} as const;

runService({
  name: "stack",
  readConfig: () => readConfigOrExit(stackConfigSpec),
  telemetry: false,
  async start({ config, onStop }) {
    // Every GATEWAY_*, LOG_LEVEL and OTEL_* variable reaches every service.
    const passThrough = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k, v]) => v !== undefined && /^(GATEWAY_|LOG_LEVEL$|OTEL_)/.test(k),
      ),
    ) as Record<string, string>;
    const gateway = await startDistributedGateway({
      edgePort: config.port,
      mongodbUrl: config.mongodbUrl,
      natsUrl: config.natsUrl,
      // The default rate limits (docs/api/limits.md) unless GATEWAY_RATE_LIMITS says otherwise.
      env: { GATEWAY_RATE_LIMITS: "", ...passThrough },
      echo: true,
    });
    onStop("stack", () => gateway.stop());
    process.stdout.write(`\nPayment gateway (distributed mode) listening on ${gateway.edgeUrl}\n`);
    process.stdout.write(`MongoDB: ${gateway.mongodbUrl}  NATS: ${gateway.natsUrl}\n`);
    for (const [name, url] of Object.entries(gateway.managementUrls))
      process.stdout.write(`${name} metrics: ${url}/metrics\n`);
    if (gateway.demoTestKey) process.stdout.write(`GATEWAY_DEMO_TEST_KEY=${gateway.demoTestKey}\n\n`);
  },
});
