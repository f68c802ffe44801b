import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type OwnedChild, spawnOwnedChild } from "../process/owned-child.js";
import { freePort, isPortFree } from "./free-port.js";

/** A server process this process started on 127.0.0.1, with its own temporary data directory. */
export interface LocalServer {
  /** Connection URL (mongodb://… or nats://…). */
  readonly url: string;
  readonly port: number;
  /** Server output goes here, not to the test's stdout. Removed with the data by stop(). */
  readonly logFile: string;
  /** SIGTERM (SIGKILL after 10 s), then removes the data directory. Idempotent. */
  stop(): Promise<void>;
  /** SIGKILL, as in a crash. Data stays, so restart() can bring the server back. */
  kill(): Promise<void>;
  /** Stops the server if it runs, then starts it again on the same port with the same data. */
  restart(): Promise<void>;
}

/** What differs between the servers; everything else (lifecycle, logs, readiness) is shared. */
export interface ServerDefinition {
  /** Short name used in temp dir names, log file names and errors. */
  name: string;
  binary: string;
  /** Creates what the server needs inside its data directory before the first start. */
  prepare?(dataDir: string): Promise<void>;
  args(port: number, dataDir: string): string[];
  url(port: number): string;
  /** Resolves when the server answers real requests; throws while it does not. */
  probe(url: string): Promise<void>;
}

export interface StartOptions {
  /** Fixed port; by default a free one is picked (and re-picked if another process grabs it). */
  port?: number;
  /** How long to wait for the server to answer; 30 s by default. */
  readyTimeoutMs?: number;
}

const STOP_GRACE_MS = 10_000;
const PROBE_INTERVAL_MS = 100;
const PORT_ATTEMPTS = 3;
const LOG_TAIL_BYTES = 4_096;

const liveDataDirs = new Set<string>();
let exitHookInstalled = false;

export async function startLocalServer(
  definition: ServerDefinition,
  options: StartOptions = {},
): Promise<LocalServer> {
  installDataDirCleanup();
  const readyTimeoutMs = options.readyTimeoutMs ?? 30_000;
  const dataDir = await mkdtemp(join(tmpdir(), `gateway-${definition.name}-`));
  liveDataDirs.add(dataDir);
  const logFile = join(dataDir, `${definition.name}.log`);

  let port: number;
  let child: OwnedChild;
  try {
    await definition.prepare?.(dataDir);
    ({ port, child } = await launchOnSomePort(definition, options.port, dataDir, logFile, readyTimeoutMs));
  } catch (err) {
    await removeDataDir(dataDir);
    throw err;
  }

  let stopped = false;
  const url = definition.url(port);
  return {
    url,
    port,
    logFile,
    async stop() {
      if (stopped) return;
      stopped = true;
      await child.terminate(STOP_GRACE_MS);
      await removeDataDir(dataDir);
    },
    async kill() {
      await child.kill();
    },
    async restart() {
      if (stopped) throw new Error(`${definition.name} at ${url} was stopped; it cannot be restarted`);
      await child.terminate(STOP_GRACE_MS);
      child = await launch(definition, port, dataDir, logFile, readyTimeoutMs);
    },
  };
}

async function launchOnSomePort(
  definition: ServerDefinition,
  fixedPort: number | undefined,
  dataDir: string,
  logFile: string,
  readyTimeoutMs: number,
): Promise<{ port: number; child: OwnedChild }> {
  for (let attempt = 1; ; attempt++) {
    const port = fixedPort ?? (await freePort());
    try {
      return { port, child: await launch(definition, port, dataDir, logFile, readyTimeoutMs) };
    } catch (err) {
      // freePort() cannot reserve the port: another process may bind it first. Pick another.
      const retry = fixedPort === undefined && attempt < PORT_ATTEMPTS && err instanceof PortInUseError;
      if (!retry) throw err;
    }
  }
}

class PortInUseError extends Error {}

async function launch(
  definition: ServerDefinition,
  port: number,
  dataDir: string,
  logFile: string,
  readyTimeoutMs: number,
): Promise<OwnedChild> {
  // Otherwise the readiness probe could reach whatever already listens there and report success.
  if (!(await isPortFree(port)))
    throw new PortInUseError(`${definition.name}: port ${port} on 127.0.0.1 is already in use`);
  const args = definition.args(port, dataDir);
  const logFd = openSync(logFile, "a");
  let child: OwnedChild;
  try {
    writeSync(logFd, `\n--- ${new Date().toISOString()} starting ${definition.binary} ${args.join(" ")}\n`);
    child = await spawnOwnedChild(definition.binary, args, {
      stdio: ["ignore", logFd, logFd],
      removeOnParentDeath: dataDir,
    });
  } finally {
    // The child has its own copy of the descriptor.
    closeSync(logFd);
  }

  const url = definition.url(port);
  const deadline = Date.now() + readyTimeoutMs;
  let lastProbeError: unknown;
  while (Date.now() < deadline) {
    if (child.hasExited()) {
      const tail = await readTail(logFile);
      const message = `${definition.name} exited before it was ready on ${url} (exit code ${await child.exited}).\n${formatTail(logFile, tail)}`;
      throw /address already in use/i.test(tail) ? new PortInUseError(message) : new Error(message);
    }
    try {
      await definition.probe(url);
      return child;
    } catch (err) {
      lastProbeError = err;
    }
    await sleep(PROBE_INTERVAL_MS);
  }
  await child.kill();
  const reason = lastProbeError instanceof Error ? lastProbeError.message : String(lastProbeError);
  throw new Error(
    `${definition.name} did not answer on ${url} within ${readyTimeoutMs} ms (last probe error: ${reason}).\n` +
      formatTail(logFile, await readTail(logFile)),
  );
}

async function readTail(logFile: string): Promise<string> {
  try {
    const handle = await open(logFile, "r");
    try {
      const { size } = await handle.stat();
      const length = Math.min(size, LOG_TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, size - length);
      return buffer.toString("utf8");
    } finally {
      await handle.close();
    }
  } catch (err) {
    return `(could not read the log: ${err instanceof Error ? err.message : String(err)})`;
  }
}

function formatTail(logFile: string, tail: string): string {
  return `Last output (${logFile}):\n${tail.trimEnd() || "(empty)"}`;
}

async function removeDataDir(dataDir: string): Promise<void> {
  liveDataDirs.delete(dataDir);
  await rm(dataDir, { recursive: true, force: true, maxRetries: 3 });
}

/** Servers are SIGKILLed by the owned-child exit hook; their temp dirs go with them. */
function installDataDirCleanup(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const dir of liveDataDirs) {
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch {
        // Best effort at exit: a leftover temp dir is harmless.
      }
    }
  });
}
