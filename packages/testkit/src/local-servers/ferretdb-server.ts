import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { ensureServerBinaries } from "./binaries.js";
import { installContainmentIndexMirror } from "./containment-index-mirror.js";
import { type LocalServer, type StartOptions, startLocalServer } from "./local-server.js";
import { startPostgres } from "./postgres-server.js";
import { pingMongo } from "./probes.js";

/**
 * FerretDB's storage: PostgreSQL (the default: it pushes equality filters down, so lookups do not
 * read every document) or SQLite (GATEWAY_FERRETDB_BACKEND=sqlite, for machines without
 * PostgreSQL; it starts faster). Replicas' compare-and-sets hold on both because the stores take
 * a write lock per document (docs/decisions.md#compare-and-set-that-holds-on-ferretdb).
 */
export type FerretDbBackend = "postgresql" | "sqlite";

export interface FerretDbOptions extends StartOptions {
  /** By default GATEWAY_FERRETDB_BACKEND, else "postgresql". */
  backend?: FerretDbBackend;
  /**
   * On PostgreSQL: give each requested index a GIN twin that FerretDB's pushed-down equality can
   * use (containment-index-mirror.ts). Default true; false runs FerretDB as shipped, the baseline
   * of bench/ferretdb-backend-bench.ts.
   */
  mirrorIndexes?: boolean;
}

export function ferretDbBackend(requested?: FerretDbBackend): FerretDbBackend {
  const chosen = requested ?? process.env.GATEWAY_FERRETDB_BACKEND ?? "postgresql";
  if (chosen !== "postgresql" && chosen !== "sqlite") {
    throw new Error(`GATEWAY_FERRETDB_BACKEND must be "postgresql" or "sqlite", got "${chosen}"`);
  }
  return chosen;
}

/**
 * Starts FerretDB (MongoDB wire protocol) on 127.0.0.1 and resolves once it answers a MongoDB
 * `ping`. On PostgreSQL a private cluster is started first in its own temporary
 * directory; stop() stops both and removes their data. kill() and restart() act on FerretDB only:
 * the data lives in PostgreSQL, as it would with a real database behind the wire server.
 */
export async function startFerretDb(options: FerretDbOptions = {}): Promise<LocalServer> {
  const { backend: requested, mirrorIndexes = true, ...startOptions } = options;
  const backend = ferretDbBackend(requested);
  const { ferretdb } = await ensureServerBinaries();
  if (backend === "sqlite") return startOnSqlite(ferretdb, startOptions);

  const postgres = await startPostgres();
  let wire: LocalServer;
  try {
    if (mirrorIndexes) await installContainmentIndexMirror(postgres.url);
    wire = await startLocalServer(
      {
        name: "ferretdb",
        binary: ferretdb,
        prepare: async (dataDir) => {
          await mkdir(join(dataDir, "state"), { recursive: true });
        },
        args: (port, dataDir) => [
          "--handler=pg",
          `--postgresql-url=${postgres.url}`,
          ...commonArgs(port, dataDir),
        ],
        url: (port) => `mongodb://127.0.0.1:${port}/`,
        probe: pingMongo,
      },
      startOptions,
    );
  } catch (err) {
    await postgres.stop();
    throw err;
  }
  return {
    url: wire.url,
    port: wire.port,
    logFile: wire.logFile,
    async stop() {
      // FerretDB first: PostgreSQL's shutdown waits for its clients to leave.
      await wire.stop();
      await postgres.stop();
    },
    kill: () => wire.kill(),
    restart: () => wire.restart(),
  };
}

function startOnSqlite(ferretdb: string, options: StartOptions): Promise<LocalServer> {
  return startLocalServer(
    {
      name: "ferretdb",
      binary: ferretdb,
      // FerretDB refuses to start when the SQLite directory does not exist.
      prepare: async (dataDir) => {
        await mkdir(join(dataDir, "sqlite"), { recursive: true });
        await mkdir(join(dataDir, "state"), { recursive: true });
      },
      args: (port, dataDir) => [
        "--handler=sqlite",
        // The URL must end with "/": FerretDB treats it as a directory holding one file per database.
        `--sqlite-url=file:${join(dataDir, "sqlite")}/`,
        ...commonArgs(port, dataDir),
      ],
      url: (port) => `mongodb://127.0.0.1:${port}/`,
      probe: pingMongo,
    },
    options,
  );
}

/** Loopback only, no debug listener, state beside the data, no telemetry, warnings and worse. */
function commonArgs(port: number, dataDir: string): string[] {
  return [
    `--listen-addr=127.0.0.1:${port}`,
    "--debug-addr=-",
    `--state-dir=${join(dataDir, "state")}`,
    "--telemetry=disable",
    "--log-level=warn",
  ];
}
