import { launcherEntries, startDistributedGateway } from "@gateway/launcher";
import { freePort, startProcess } from "@gateway/testkit";

/** A running gateway as a merchant reaches it: its URL and a demo test key. */
export interface GatewayTarget {
  url: string;
  demoKey: string;
  stop(): Promise<void>;
}

/**
 * `npm start` as one process (no MongoDB, no NATS), answering on its own URL, without rate
 * limits (suites that send many requests from one key test budgets elsewhere).
 */
export async function startEmbeddedTarget(
  demoKey: string,
  env: Record<string, string> = {},
): Promise<GatewayTarget> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = await startProcess({
    name: "embedded",
    entry: launcherEntries.embedded,
    env: {
      PORT: String(port),
      GATEWAY_PUBLIC_URL: url,
      GATEWAY_RATE_LIMITS: "off",
      GATEWAY_DEMO_TEST_KEY: demoKey,
      MONGODB_URL: "",
      NATS_URL: "",
      ...env,
    },
    readyUrl: `${url}/healthz`,
    timeoutMs: 60_000,
  });
  return { url, demoKey, stop: () => proc.stop() };
}

/** The distributed stack (a process per service, MongoDB wire server, NATS) with its demo merchant. */
export async function startDistributedTarget(
  databasePrefix: string,
  env: Record<string, string> = {},
): Promise<GatewayTarget> {
  const gw = await startDistributedGateway({
    mongodbUrl: process.env.MONGODB_URL,
    natsUrl: process.env.NATS_URL,
    databasePrefix,
    env,
  });
  return { url: gw.edgeUrl, demoKey: gw.demoTestKey!, stop: () => gw.stop() };
}
