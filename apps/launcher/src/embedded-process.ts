import { freePort, type ManagedProcess, startProcess } from "@gateway/testkit";
import { embeddedLaunch } from "./node-launch.js";

export interface EmbeddedProcess {
  /** http://127.0.0.1:<port> */
  url: string;
  process: ManagedProcess;
}

/**
 * `npm start` as a child process (no MongoDB, no NATS), on a free loopback port, with the demo
 * merchant's test key `demoKey` and without rate limits (callers that send many requests from
 * one key test budgets elsewhere). For the end-to-end suites and the benchmarks.
 */
export async function startEmbeddedProcess(
  demoKey: string,
  env: Record<string, string> = {},
): Promise<EmbeddedProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const process = await startProcess({
    name: "embedded",
    ...embeddedLaunch,
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
  return { url, process };
}
