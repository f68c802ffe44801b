import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { ensureServerBinaries } from "./binaries.js";
import { startLocalServer, type LocalServer, type StartOptions } from "./local-server.js";
import { pingMongo } from "./probes.js";

/**
 * Starts FerretDB (MongoDB wire protocol, SQLite storage) on 127.0.0.1 with its data in a fresh
 * temporary directory. Resolves once it answers a MongoDB `ping`.
 */
export async function startFerretDb(options: StartOptions = {}): Promise<LocalServer> {
  const { ferretdb } = await ensureServerBinaries();
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
        `--listen-addr=127.0.0.1:${port}`,
        "--debug-addr=-",
        `--state-dir=${join(dataDir, "state")}`,
        "--telemetry=disable",
        "--log-level=warn",
      ],
      url: (port) => `mongodb://127.0.0.1:${port}/`,
      probe: pingMongo,
    },
    options,
  );
}

