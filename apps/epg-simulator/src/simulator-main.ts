import { createLogger, installGracefulShutdown, readConfigOrExit } from "@gateway/platform";
import { simulatorTerminalBaseUrl } from "@gateway/acquirer";
import { createEpgSimulator } from "./epg-simulator.js";
import { simulatorConfigSpec } from "./simulator-config.js";

// The EPG simulator as its own process (distributed mode, Helm component `epg-simulator`).
// Test terminals point their base URL at `{public URL}/epg/rest`.


async function main(): Promise<void> {
  const config = readConfigOrExit(simulatorConfigSpec);
  const logger = createLogger({ service: "epg-simulator", level: config.logLevel });
  const simulator = createEpgSimulator({
    credentials: [{ username: config.username, password: config.password }],
    orderTimeoutMs: config.orderTimeout,
    lateApprovalDelayMs: config.lateApprovalDelay,
    timeoutCardDelayMs: config.timeoutCardDelay,
    logger,
    ...(config.publicUrl === undefined ? {} : { publicUrl: config.publicUrl }),
    ...(config.callbackUrl === undefined ? {} : { callbackUrl: config.callbackUrl }),
  });
  const server = await simulator.listen(config.port, config.host);
  logger.info(
    { url: server.url, terminalBaseUrl: simulatorTerminalBaseUrl(config.publicUrl ?? server.url), terminal: config.username },
    "EPG simulator listening",
  );
  installGracefulShutdown(logger, [{ name: "server", run: () => server.close() }]);
}

main().catch((err: unknown) => {
  process.stderr.write(`epg-simulator failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
