import { simulatorTerminalBaseUrl } from "@gateway/acquirer";
import { readConfigOrExit, runService } from "@gateway/platform";
import { createEpgSimulator } from "./epg-simulator.js";
import { simulatorConfigSpec } from "./simulator-config.js";

// The EPG simulator as its own process (distributed mode, Helm component `epg-simulator`).
// Test terminals point their base URL at `{public URL}/epg/rest`.
runService({
  name: "epg-simulator",
  readConfig: () => readConfigOrExit(simulatorConfigSpec),
  telemetry: false,
  async start({ config, logger, onStop }) {
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
    onStop("server", () => server.close());
    logger.info(
      {
        url: server.url,
        terminalBaseUrl: simulatorTerminalBaseUrl(config.publicUrl ?? server.url),
        terminal: config.username,
      },
      "EPG simulator listening",
    );
  },
});
