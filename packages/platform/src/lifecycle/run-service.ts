import type { Db, MongoClient } from "mongodb";
import { ConfigError } from "../config/read-config.js";
import type { EventBus } from "../events/event-bus.js";
import { createJetStreamEventBus } from "../events/jetstream-event-bus.js";
import { createLogger, type Logger } from "../logger.js";
import { connectMongo } from "../mongo.js";
import { connectNats, ensureEventsStream, type NatsConnection } from "../nats.js";
import { initTelemetry } from "../telemetry/tracing.js";
import { watchParentPipe } from "./parent-pipe.js";
import { installGracefulShutdown, type ShutdownStep } from "./shutdown.js";

/** What every process's configuration carries for the bootstrap. */
export interface BootstrapConfig {
  logLevel: string;
  shutdownTimeoutMs: number;
}

export interface ServiceContext<C> {
  config: C;
  logger: Logger;
  /**
   * Registers how to stop something just started. Stops run in reverse order of registration
   * (what was started last, e.g. the server or a background loop, stops first), all under the
   * one shutdown deadline.
   */
  onStop(name: string, run: ShutdownStep["run"], abandon?: ShutdownStep["abandon"]): void;
  /** Connects to MongoDB; closed at shutdown, force-closed (pending calls fail) past the deadline. */
  mongo(url: string, database: string): Promise<{ client: MongoClient; db: Db }>;
  /** Connects to NATS; drained at shutdown, closed without draining past the deadline. */
  nats(url: string): Promise<NatsConnection>;
  /** `nats(url)`, the events stream declared, and a JetStream event bus on it that stops before NATS drains. */
  events(url: string, stream?: { replicas?: number }): Promise<{ nc: NatsConnection; bus: EventBus }>;
}

export interface RunServiceOptions<C extends BootstrapConfig> {
  /** Short name: logs, telemetry, MongoDB and NATS client names. */
  name: string;
  /** Reads and validates the configuration; a ConfigError is printed and the process exits 1. */
  readConfig: () => C;
  /** Off for processes that export no traces (the EPG simulator). */
  telemetry?: boolean;
  /** Connects adapters, starts servers and loops, registering how to stop each with `onStop`. */
  start(context: ServiceContext<C>): Promise<void>;
}

/**
 * Every process's composition root goes through here: config, logger, telemetry, then the
 * service's own start, then a bounded shutdown on SIGTERM, SIGINT or the launcher's death
 * (its pipe closing). A signal during start-up abandons the start (exit 1): nothing is served yet.
 */
export function runService<C extends BootstrapConfig>(options: RunServiceOptions<C>): void {
  const { name } = options;
  let config: C;
  try {
    config = options.readConfig();
  } catch (err) {
    // ConfigError messages name the bad variables and never echo secrets.
    process.stderr.write(
      `${err instanceof ConfigError ? err.message : `${name} failed to start: ${String(err)}`}\n`,
    );
    process.exit(1);
  }
  const logger = createLogger({ service: name, level: config.logLevel });
  let started = false;
  const startUp: ShutdownStep = {
    name: "start-up",
    run: async () => {
      if (started) return;
      logger.warn("stopped during start-up, abandoning the start");
      process.exit(1);
    },
  };
  // Last registered first: the server and loops stop before the clients they use close.
  const steps: ShutdownStep[] = [];
  const shutdown = installGracefulShutdown(logger, () => [startUp, ...steps], {
    timeoutMs: config.shutdownTimeoutMs,
  });
  const onStop: ServiceContext<C>["onStop"] = (stepName, run, abandon) => {
    steps.unshift({ name: stepName, run, ...(abandon ? { abandon } : {}) });
  };
  if (options.telemetry !== false) {
    const telemetry = initTelemetry({ serviceName: name });
    onStop("telemetry", () => telemetry.shutdown());
  }
  // The launcher is gone (its output pipes too): shut down as on SIGTERM.
  watchParentPipe(() => shutdown.begin("launcher gone"));

  const context: ServiceContext<C> = {
    config,
    logger,
    onStop,
    async mongo(url, database) {
      const client = await connectMongo(url, name);
      onStop(
        "mongo",
        () => client.close(),
        () => client.close(true),
      );
      return { client, db: client.db(database) };
    },
    async nats(url) {
      const nc = await connectNats(url, name, logger);
      onStop(
        "nats",
        () => nc.drain(),
        () => nc.close(),
      );
      return nc;
    },
    async events(url, stream = {}) {
      const nc = await context.nats(url);
      await ensureEventsStream(nc, stream);
      const bus = await createJetStreamEventBus({ nc, logger });
      onStop("events", () => bus.close());
      return { nc, bus };
    },
  };
  options.start(context).then(
    () => {
      started = true;
    },
    (err: unknown) => {
      // Start-up failed (database unreachable, bad key…): say why on stderr and stop.
      process.stderr.write(`${name} failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
