import { startDistributedGateway, startEmbeddedProcess } from "@gateway/launcher";

/** A running gateway as a merchant reaches it: its URL and a demo test key. */
export interface GatewayTarget {
  url: string;
  demoKey: string;
  stop(): Promise<void>;
}

/** `npm start` as one process (no MongoDB, no NATS), answering on its own URL, without rate limits. */
export async function startEmbeddedTarget(
  demoKey: string,
  env: Record<string, string> = {},
): Promise<GatewayTarget> {
  const { url, process } = await startEmbeddedProcess(demoKey, env);
  return { url, demoKey, stop: () => process.stop() };
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
