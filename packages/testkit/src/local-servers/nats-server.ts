import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { ensureServerBinaries } from "./binaries.js";
import { type LocalServer, type StartOptions, startLocalServer } from "./local-server.js";
import { pingJetStream } from "./probes.js";

/**
 * Starts nats-server with JetStream on 127.0.0.1, its store in a fresh temporary directory.
 * Resolves once a client connects and JetStream answers. restart() keeps the port and the store,
 * so streams and their messages survive it.
 */
export async function startNatsServer(options: StartOptions = {}): Promise<LocalServer> {
  const { natsServer } = await ensureServerBinaries();
  return startLocalServer(
    {
      name: "nats-server",
      binary: natsServer,
      prepare: async (dataDir) => {
        await mkdir(join(dataDir, "jetstream"), { recursive: true });
      },
      args: (port, dataDir) => [
        "-js",
        "-a",
        "127.0.0.1",
        "-p",
        String(port),
        "-sd",
        join(dataDir, "jetstream"),
      ],
      url: (port) => `nats://127.0.0.1:${port}`,
      probe: pingJetStream,
    },
    options,
  );
}
