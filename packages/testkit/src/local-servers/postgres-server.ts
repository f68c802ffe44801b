import { execFile } from "node:child_process";
import { chmod, chown, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { type LocalServer, type StartOptions, startLocalServer } from "./local-server.js";
import { postgresBinDir, serverIdentity } from "./postgres-binaries.js";

const run = promisify(execFile);

/** The cluster's superuser; trust authentication, loopback only. */
const SUPERUSER = "postgres";

/**
 * Starts a private PostgreSQL cluster: `initdb` into a fresh temporary directory, the server on
 * 127.0.0.1 (a free port), its unix socket in that directory, never the system's. Durability is
 * switched off (fsync, synchronous_commit, full_page_writes): the data is thrown away with the
 * directory, and these clusters serve tests, benchmarks and `npm run stack`, never production.
 * Resolves once `pg_isready` reports it accepts connections. url is a postgres:// URL.
 */
export async function startPostgres(options: StartOptions = {}): Promise<LocalServer> {
  const binDir = postgresBinDir();
  if (!binDir) {
    throw new Error(
      "PostgreSQL was not found (no initdb/postgres/pg_isready/psql on PATH or in /usr/lib/postgresql/<major>/bin). " +
        "Install it (Debian: apt-get install postgresql), set GATEWAY_POSTGRES_BIN_DIR, " +
        "or set GATEWAY_FERRETDB_BACKEND=sqlite to run FerretDB on SQLite.",
    );
  }
  const identity = await serverIdentity();
  const [launcher = join(binDir, "postgres"), ...launcherArgs] =
    identity.prefix.length > 0 ? [...identity.prefix, join(binDir, "postgres")] : [];
  return startLocalServer(
    {
      name: "postgres",
      binary: launcher,
      prepare: async (dataDir) => {
        const cluster = join(dataDir, "cluster");
        const socketDir = join(dataDir, "socket");
        await mkdir(cluster, { mode: 0o700 });
        await mkdir(socketDir, { mode: 0o700 });
        if (identity.prefix.length > 0) {
          // The unprivileged account must reach its directories inside our (root-owned) temp dir.
          await chmod(dataDir, 0o711);
          await Promise.all([
            chown(cluster, identity.uid, identity.gid),
            chown(socketDir, identity.uid, identity.gid),
          ]);
        }
        const initdb = [...identity.prefix, join(binDir, "initdb")];
        const initdbArgs = [
          "-D",
          cluster,
          "-U",
          SUPERUSER,
          "--auth=trust",
          "--encoding=UTF8",
          "--locale=C",
          "--no-sync",
          "--no-instructions",
        ];
        try {
          await run(initdb[0]!, [...initdb.slice(1), ...initdbArgs], { maxBuffer: 4 * 1024 * 1024 });
        } catch (err) {
          const detail = (err as { stderr?: string }).stderr ?? (err as Error).message;
          throw new Error(`initdb failed: ${detail}`, { cause: err });
        }
      },
      args: (port, dataDir) => [
        ...launcherArgs,
        "-D",
        join(dataDir, "cluster"),
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        `port=${port}`,
        "-c",
        `unix_socket_directories=${join(dataDir, "socket")}`,
        "-c",
        "fsync=off",
        "-c",
        "synchronous_commit=off",
        "-c",
        "full_page_writes=off",
        // Collections are created empty and filled fast. Until autovacuum first analyzes one,
        // the planner guesses every key as selective and ANDs the index of a key every document
        // shares (`mode`, `merchantId`): lookups read the whole table and stall a stack under load
        // for its first minute. Looking every second, not every minute, learns the shape at once
        // (docs/decisions.md#the-local-database-learns-a-new-collections-shape-at-once).
        "-c",
        "autovacuum_naptime=1",
        // After that first look, analyze again only once a table has changed by twice its size
        // (the default is a tenth): each analyze of a collection with dozens of expression
        // indexes stalled every write to it for about 100 ms, every second or two while a stack
        // under load grew its sessions (docs/decisions.md#the-local-database-analyzes-a-growing-collection-rarely).
        "-c",
        "autovacuum_analyze_scale_factor=2",
        // FerretDB stores each document with its type schema beside it, so a session (4 KB of
        // jsonb) is compressed on every write; lz4 does that in half the CPU of the default pglz
        // (docs/decisions.md#the-local-database-compresses-documents-with-lz4).
        "-c",
        "default_toast_compression=lz4",
        // Every service of a stack holds a pool through FerretDB; the default 100 is too few.
        "-c",
        "max_connections=400",
      ],
      url: (port) => `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`,
      probe: async (url) => {
        const { port } = new URL(url);
        await run(join(binDir, "pg_isready"), [
          "-q",
          "-h",
          "127.0.0.1",
          "-p",
          port,
          "-U",
          SUPERUSER,
          "-d",
          "postgres",
          "-t",
          "1",
        ]);
      },
    },
    options,
  );
}
