import { randomBytes } from "node:crypto";
import { generateServiceAuthKeys } from "@gateway/platform";
import {
  freePorts,
  type LocalServer,
  type ManagedProcess,
  type ProcessRuntime,
  startFerretDb,
  startNatsServer,
  startProcess,
  waitFor,
} from "@gateway/testkit";
import { SERVICE_NODE_ARGS } from "./node-launch.js";
import { compiledEntry, type ServiceName, serviceEntries } from "./service-entries.js";

export interface DistributedGatewayOptions {
  /** Edge port; 0 picks a free one. */
  edgePort?: number;
  /**
   * Edge processes to start (default 1), each on its own port (the first on edgePort), all with
   * the same upstreams and NATS, so they share rate limits as replicas behind a load balancer do.
   */
  edgeReplicas?: number;
  /**
   * Sessions processes to start (default 1), each on its own port with the same environment, so
   * their background work (expiry sweeps, reconciliation) runs concurrently as replicas do. The
   * edge and refunds talk to the first.
   */
  sessionsReplicas?: number;
  /** Use these servers instead of starting local ones. */
  mongodbUrl?: string;
  natsUrl?: string;
  /**
   * Extra environment for every process (GATEWAY_ADMIN_TOKEN, lifetimes, OTEL_…).
   * GATEWAY_RATE_LIMITS is `off` unless given here (suites create many sessions quickly with one
   * key); `GATEWAY_RATE_LIMITS: ""` gives the default limits (docs/api/limits.md).
   */
  env?: Record<string, string>;
  /** Per-service environment overrides. */
  serviceEnv?: Partial<Record<ServiceName, Record<string, string>>>;
  /** Prefix for database names, so parallel stacks never share data. */
  databasePrefix?: string;
  /** Mirror each process's output to this process's stdout (npm run stack). */
  echo?: boolean;
  /**
   * "tsx" (default) runs the TypeScript sources; "compiled" runs what `npm run build` wrote to
   * each workspace's dist/ with plain node, as the production image does.
   */
  runtime?: ProcessRuntime;
}

export interface DistributedGateway {
  /** The first edge replica. */
  edgeUrl: string;
  /**
   * Each gateway process's management listener (GET /metrics), the first replica's for the edge
   * and sessions; the EPG simulator is not part of the gateway and has none.
   */
  managementUrls: Record<GatewayProcessName, string>;
  /** Every edge replica's management listener, in edgeUrls order. */
  edgeManagementUrls: string[];
  /** Every sessions replica's management listener, in sessionsProcesses order. */
  sessionsManagementUrls: string[];
  /** Every edge replica (edgeReplicas), the first being edgeUrl. */
  edgeUrls: string[];
  mongodbUrl: string;
  natsUrl: string;
  /** The EPG simulator process (test terminals use `<simulatorUrl>/epg/rest`). */
  simulatorUrl: string;
  /** `edge` is the first edge replica. */
  processes: Record<ServiceName, ManagedProcess>;
  /** Every edge replica's process, in edgeUrls order. */
  edgeProcesses: ManagedProcess[];
  /** Every sessions replica's process, the first being processes.sessions. */
  sessionsProcesses: ManagedProcess[];
  /** The demo merchant's test key, when GATEWAY_DEMO is on. */
  demoTestKey?: string;
  /** Restart one service with the same ports and environment ("edge", "sessions": every replica). */
  restart(name: ServiceName): Promise<ManagedProcess>;
  stop(): Promise<void>;
}

/** The processes that are the gateway (each has a management listener). */
export type GatewayProcessName = Exclude<ServiceName, "epg-simulator">;

const DEMO_KEY_LINE = /^GATEWAY_DEMO_TEST_KEY=(\S+)$/m;

/**
 * Distributed mode: one process per service, gRPC over loopback, a MongoDB wire server and
 * NATS JetStream (started locally when no URL is given). Used by `npm run stack` and by the
 * end-to-end suites, so what the tests exercise is what an operator runs.
 */
export async function startDistributedGateway(
  options: DistributedGatewayOptions = {},
): Promise<DistributedGateway> {
  const edgeReplicas = options.edgeReplicas ?? 1;
  if (!Number.isInteger(edgeReplicas) || edgeReplicas < 1)
    throw new Error(`edgeReplicas must be a whole number >= 1, got ${edgeReplicas}`);
  const sessionsReplicas = options.sessionsReplicas ?? 1;
  if (!Number.isInteger(sessionsReplicas) || sessionsReplicas < 1) {
    throw new Error(`sessionsReplicas must be a whole number >= 1, got ${sessionsReplicas}`);
  }
  const owned: LocalServer[] = [];
  const processes: Partial<Record<ServiceName, ManagedProcess>> = {};
  const edgeProcesses: ManagedProcess[] = [];
  const sessionsProcesses: ManagedProcess[] = [];
  const stopAll = async () => {
    for (const edge of edgeProcesses) await edge.stop();
    // The first replica is processes.sessions, stopped with the other services below.
    for (const replica of sessionsProcesses.slice(1)) await replica.stop();
    for (const name of ["webhooks", "refunds", "sessions", "accounts", "epg-simulator"] as const)
      await processes[name]?.stop();
    for (const server of owned.reverse()) await server.stop();
  };
  try {
    const mongodbUrl = options.mongodbUrl ?? (await own(owned, startFerretDb())).url;
    const natsUrl = options.natsUrl ?? (await own(owned, startNatsServer())).url;
    // All at once, so no two processes are ever given the same port.
    // Per gateway process: its RPC/public port and its management port (MANAGEMENT_PORT).
    const free = await freePorts(
      5 + edgeReplicas + sessionsReplicas - 1 + 4 + edgeReplicas + sessionsReplicas - 1,
    );
    const take = () => free.pop()!;
    const ports: Record<ServiceName, number> = {
      accounts: take(),
      sessions: take(),
      refunds: take(),
      webhooks: take(),
      "epg-simulator": take(),
      edge: options.edgePort || take(),
    };
    const local = (name: ServiceName) => `http://127.0.0.1:${ports[name]}`;
    const edgePorts = [ports.edge];
    while (edgePorts.length < edgeReplicas) edgePorts.push(take());
    const sessionsPorts = [ports.sessions];
    while (sessionsPorts.length < sessionsReplicas) sessionsPorts.push(take());
    // Keyed by the process's own port, so a restart keeps each process's management port.
    const managementPorts = new Map<number, number>();
    for (const port of [ports.accounts, ports.refunds, ports.webhooks, ...edgePorts, ...sessionsPorts])
      managementPorts.set(port, take());
    const managementUrl = (port: number) => `http://127.0.0.1:${managementPorts.get(port)}`;
    const secretsKey = randomBytes(32).toString("base64");
    // Fresh keys of every caller>target pair per stack run (restarts keep them); each process gets only its own pairs.
    const serviceAuthKeys = generateServiceAuthKeys();
    // Shared by every edge replica, so a checkout form served by one is accepted by another.
    const csrfSecret = randomBytes(32).toString("base64url");
    const db = (service: string) => `${options.databasePrefix ?? "gateway"}_${service}`;
    // Checkout links and problem type URIs point at the edge unless the operator says otherwise.
    const common = {
      GATEWAY_PUBLIC_URL: local("edge"),
      GATEWAY_RATE_LIMITS: "off",
      // A local stack is a development configuration: webhooks may go to local receivers.
      GATEWAY_WEBHOOK_ALLOW_PRIVATE: "1",
      ...options.env,
      MONGODB_URL: mongodbUrl,
      NATS_URL: natsUrl,
      HOST: "127.0.0.1",
    };
    const envFor: Record<ServiceName, Record<string, string>> = {
      // One encryption key per stack run (restarts keep it): terminal passwords stay readable.
      accounts: {
        GATEWAY_SECRETS_KEY: secretsKey,
        GATEWAY_SERVICE_AUTH_KEYS: serviceAuthKeys.accounts,
        GATEWAY_DEMO_TERMINAL_URL: `${local("epg-simulator")}/epg/rest`,
        ...common,
        MONGODB_DATABASE: db("accounts"),
        ...options.serviceEnv?.accounts,
      },
      sessions: {
        GATEWAY_SERVICE_AUTH_KEYS: serviceAuthKeys.sessions,
        ...common,
        MONGODB_DATABASE: db("sessions"),
        ACCOUNTS_URL: local("accounts"),
        ...options.serviceEnv?.sessions,
      },
      refunds: {
        GATEWAY_SERVICE_AUTH_KEYS: serviceAuthKeys.refunds,
        ...common,
        MONGODB_DATABASE: db("refunds"),
        ACCOUNTS_URL: local("accounts"),
        SESSIONS_URL: local("sessions"),
        ...options.serviceEnv?.refunds,
      },
      webhooks: {
        GATEWAY_SECRETS_KEY: secretsKey,
        GATEWAY_SERVICE_AUTH_KEYS: serviceAuthKeys.webhooks,
        ...common,
        MONGODB_DATABASE: db("webhooks"),
        ...options.serviceEnv?.webhooks,
      },
      "epg-simulator": {
        ...common,
        EPG_SIM_PUBLIC_URL: local("epg-simulator"),
        EPG_SIM_CALLBACK_URL: `${local("edge")}/checkout/callback`,
        ...options.serviceEnv?.["epg-simulator"],
      },
      edge: {
        GATEWAY_CSRF_SECRET: csrfSecret,
        GATEWAY_SERVICE_AUTH_KEYS: serviceAuthKeys.edge,
        // The checkout form's redirect goes to the simulator's card page.
        GATEWAY_CHECKOUT_FORM_ACTION_ORIGINS: `${local("edge")},${local("epg-simulator")}`,
        ...common,
        ACCOUNTS_URL: local("accounts"),
        SESSIONS_URL: local("sessions"),
        WEBHOOKS_URL: local("webhooks"),
        REFUNDS_URL: local("refunds"),
        ...options.serviceEnv?.edge,
      },
    };
    const launch = (name: ServiceName, port = ports[name], label: string = name) =>
      startProcess({
        name: label,
        entry: options.runtime === "compiled" ? compiledEntry(serviceEntries[name]) : serviceEntries[name],
        runtime: options.runtime,
        nodeArgs: SERVICE_NODE_ARGS,
        env: {
          ...envFor[name],
          PORT: String(port),
          ...(managementPorts.has(port) ? { MANAGEMENT_PORT: String(managementPorts.get(port)) } : {}),
        },
        readyUrl: `http://127.0.0.1:${port}/readyz`,
        timeoutMs: 60_000,
        echo: options.echo,
      });
    const launchEdges = async () => {
      edgeProcesses.length = 0;
      for (const [i, port] of edgePorts.entries())
        edgeProcesses.push(await launch("edge", port, i === 0 ? "edge" : `edge-${i + 1}`));
      processes.edge = edgeProcesses[0];
    };
    const launchSessions = async () => {
      sessionsProcesses.length = 0;
      for (const [i, port] of sessionsPorts.entries()) {
        sessionsProcesses.push(await launch("sessions", port, i === 0 ? "sessions" : `sessions-${i + 1}`));
        // Set at once, so a later replica failing to start still leaves the first to stopAll.
        processes.sessions = sessionsProcesses[0];
      }
    };
    // Dependencies first: the edge's readiness includes its upstreams.
    processes["epg-simulator"] = await launch("epg-simulator");
    processes.accounts = await launch("accounts");
    await launchSessions();
    processes.refunds = await launch("refunds");
    processes.webhooks = await launch("webhooks");
    await launchEdges();

    let demoTestKey: string | undefined;
    if (envFor.accounts.GATEWAY_DEMO !== "0") {
      const accounts = processes.accounts;
      demoTestKey = await waitFor(() => DEMO_KEY_LINE.exec(accounts.logs())?.[1], {
        timeoutMs: 10_000,
        message: "accounts did not print the demo test key",
      });
    }
    return {
      edgeUrl: local("edge"),
      simulatorUrl: local("epg-simulator"),
      edgeUrls: edgePorts.map((port) => `http://127.0.0.1:${port}`),
      managementUrls: {
        accounts: managementUrl(ports.accounts),
        sessions: managementUrl(ports.sessions),
        refunds: managementUrl(ports.refunds),
        webhooks: managementUrl(ports.webhooks),
        edge: managementUrl(ports.edge),
      },
      edgeManagementUrls: edgePorts.map(managementUrl),
      sessionsManagementUrls: sessionsPorts.map(managementUrl),
      mongodbUrl,
      natsUrl,
      processes: processes as Record<ServiceName, ManagedProcess>,
      edgeProcesses,
      sessionsProcesses,
      demoTestKey,
      async restart(name) {
        if (name === "edge") {
          for (const edge of edgeProcesses) await edge.stop();
          await launchEdges();
          return edgeProcesses[0]!;
        }
        if (name === "sessions") {
          for (const replica of sessionsProcesses) await replica.stop();
          await launchSessions();
          return sessionsProcesses[0]!;
        }
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
