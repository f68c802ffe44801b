import { freePort, startFerretDb, startNatsServer, startProcess, waitFor, type LocalServer, type ManagedProcess } from "@gateway/testkit";
import { serviceEntries, type ServiceName } from "./service-entries.js";

export interface DistributedGatewayOptions {
  /** Edge port; 0 picks a free one. */
  edgePort?: number;
  /** Use these servers instead of starting local ones. */
  mongodbUrl?: string;
  natsUrl?: string;
  /** Extra environment for every process (GATEWAY_ADMIN_TOKEN, lifetimes, OTEL_…). */
  env?: Record<string, string>;
  /** Per-service environment overrides. */
  serviceEnv?: Partial<Record<ServiceName, Record<string, string>>>;
  /** Prefix for database names, so parallel stacks never share data. */
  databasePrefix?: string;
  /** Mirror each process's output to this process's stdout (npm run stack). */
  echo?: boolean;
}

export interface DistributedGateway {
  edgeUrl: string;
  mongodbUrl: string;
  natsUrl: string;
  processes: Record<ServiceName, ManagedProcess>;
  /** The demo merchant's test key, when GATEWAY_DEMO is on. */
  demoTestKey?: string;
  /** Restart one service with the same ports and environment. */
  restart(name: ServiceName): Promise<ManagedProcess>;
  stop(): Promise<void>;
}

const DEMO_KEY_LINE = /^GATEWAY_DEMO_TEST_KEY=(\S+)$/m;

/**
 * Distributed mode: one process per service, gRPC over loopback, a MongoDB wire server and
 * NATS JetStream (started locally when no URL is given). Used by `npm run stack` and by the
 * end-to-end suites, so what the tests exercise is what an operator runs.
 */
export async function startDistributedGateway(options: DistributedGatewayOptions = {}): Promise<DistributedGateway> {
  const owned: LocalServer[] = [];
  const processes: Partial<Record<ServiceName, ManagedProcess>> = {};
  const stopAll = async () => {
    for (const name of ["edge", "sessions", "accounts"] as const) await processes[name]?.stop();
    for (const server of owned.reverse()) await server.stop();
  };
  try {
    const mongodbUrl = options.mongodbUrl ?? (await own(owned, startFerretDb())).url;
    const natsUrl = options.natsUrl ?? (await own(owned, startNatsServer())).url;
    const ports = {
      accounts: await freePort(),
      sessions: await freePort(),
      edge: options.edgePort || (await freePort()),
    };
    const db = (service: string) => `${options.databasePrefix ?? "gateway"}_${service}`;
    // Checkout links and problem type URIs point at the edge unless the operator says otherwise.
    const common = {
      GATEWAY_PUBLIC_URL: `http://127.0.0.1:${ports.edge}`,
      ...options.env,
      MONGODB_URL: mongodbUrl,
      NATS_URL: natsUrl,
      HOST: "127.0.0.1",
    };
    const envFor: Record<ServiceName, Record<string, string>> = {
      accounts: { ...common, PORT: String(ports.accounts), MONGODB_DATABASE: db("accounts"), ...options.serviceEnv?.accounts },
      sessions: {
        ...common,
        PORT: String(ports.sessions),
        MONGODB_DATABASE: db("sessions"),
        ACCOUNTS_URL: `http://127.0.0.1:${ports.accounts}`,
        ...options.serviceEnv?.sessions,
      },
      edge: {
        ...common,
        PORT: String(ports.edge),
        ACCOUNTS_URL: `http://127.0.0.1:${ports.accounts}`,
        SESSIONS_URL: `http://127.0.0.1:${ports.sessions}`,
        ...options.serviceEnv?.edge,
      },
    };
    const launch = (name: ServiceName) =>
      startProcess({
        name,
        entry: serviceEntries[name],
        env: envFor[name],
        readyUrl: `http://127.0.0.1:${ports[name]}/readyz`,
        timeoutMs: 60_000,
        echo: options.echo,
      });
    // Dependencies first: the edge's readiness includes its upstreams.
    processes.accounts = await launch("accounts");
    processes.sessions = await launch("sessions");
    processes.edge = await launch("edge");

    let demoTestKey: string | undefined;
    if (envFor.accounts.GATEWAY_DEMO !== "0") {
      const accounts = processes.accounts;
      demoTestKey = await waitFor(() => DEMO_KEY_LINE.exec(accounts.logs())?.[1], {
        timeoutMs: 10_000,
        message: "accounts did not print the demo test key",
      });
    }
    return {
      edgeUrl: `http://127.0.0.1:${ports.edge}`,
      mongodbUrl,
      natsUrl,
      processes: processes as Record<ServiceName, ManagedProcess>,
      demoTestKey,
      async restart(name) {
        await processes[name]?.stop();
        processes[name] = await launch(name);
        return processes[name]!;
      },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

async function own(list: LocalServer[], starting: Promise<LocalServer>): Promise<LocalServer> {
  const server = await starting;
  list.push(server);
  return server;
}
