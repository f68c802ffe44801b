// The servers bench/http-scale-bench.ts sends to: the embedded gateway (`npm start` as one
// process), the distributed gateway (a process per service, MongoDB wire server, NATS), and the
// floor server of each (./http-floor-server.ts), every one its own process on loopback.
import { fileURLToPath } from "node:url";
import { type DistributedGateway, startDistributedGateway, startEmbeddedProcess } from "@gateway/launcher";
import { freePort, type ManagedProcess, startProcess } from "@gateway/testkit";

export interface Target {
  url: string;
  /** Bearer token the target accepts (the floors accept anything). */
  key: string;
  /** Its processes, for CPU readings. */
  processes: Array<{ name: string; pid: number }>;
  stop(): Promise<void>;
}

const FLOOR_ENTRY = fileURLToPath(new URL("./http-floor-server.ts", import.meta.url));

/** `npm start`: every service in one process, in-memory stores, no rate limits. */
export async function startEmbedded(demoKey: string, env: Record<string, string>): Promise<Target> {
  const { url, process } = await startEmbeddedProcess(demoKey, env);
  return {
    url,
    key: demoKey,
    processes: [{ name: "embedded", pid: process.pid }],
    stop: () => process.stop(),
  };
}

/** The floor: in memory, or on the given MongoDB wire server and NATS. */
export async function startFloor(stores?: { mongodbUrl: string; natsUrl: string }): Promise<Target> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = await startProcess({
    name: "floor",
    entry: FLOOR_ENTRY,
    env: {
      PORT: String(port),
      FLOOR_MONGODB_URL: stores?.mongodbUrl ?? "",
      FLOOR_NATS_URL: stores?.natsUrl ?? "",
    },
    readyUrl: `${url}/healthz`,
    timeoutMs: 60_000,
  });
  return { url, key: "floor", processes: [{ name: "floor", pid: proc.pid }], stop: () => proc.stop() };
}

export interface DistributedTarget extends Target {
  gateway: DistributedGateway;
  /** Its databases are named `<databasePrefix>_<service>`. */
  databasePrefix: string;
}

/**
 * The distributed stack; MONGODB_URL / NATS_URL, when set, are used instead of local servers.
 * `onDatabaseOf` puts it on another stack's database server instead (its databases named by its
 * own prefix), with a local NATS of its own whatever NATS_URL says: on a shared stream, each
 * stack's services would consume the other's events.
 */
export async function startDistributed(
  databasePrefix: string,
  env: Record<string, string>,
  onDatabaseOf?: DistributedTarget,
): Promise<DistributedTarget> {
  const gateway = await startDistributedGateway({
    mongodbUrl: onDatabaseOf ? onDatabaseOf.gateway.mongodbUrl : process.env.MONGODB_URL || undefined,
    natsUrl: onDatabaseOf ? undefined : process.env.NATS_URL || undefined,
    databasePrefix,
    env,
  });
  const processes = Object.values(gateway.processes).map((p: ManagedProcess) => ({
    name: p.name,
    pid: p.pid,
  }));
  return {
    url: gateway.edgeUrl,
    key: gateway.demoTestKey!,
    processes,
    gateway,
    databasePrefix,
    stop: () => gateway.stop(),
  };
}
