import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { BoundedOutput } from "./bounded-output.js";
import { spawnOwnedChild } from "./owned-child.js";

export interface StartProcessOptions {
  /** Shown in errors: "sessions". */
  name: string;
  /** A .ts (or .js) file, run as `node --import tsx <entry>`. Relative paths are from the cwd. */
  entry: string;
  /** Added to this process's environment (PATH, HOME… are inherited); these values win. */
  env: Record<string, string>;
  /** Polled with GET until it answers 200; without it the process counts as ready once spawned. */
  readyUrl?: string;
  /** Limit for readiness; 30 s by default. */
  timeoutMs?: number;
  /** Also copy each output line to this process's stdout, prefixed with the name (npm run stack). */
  echo?: boolean;
}

export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  /** Everything it wrote to stdout and stderr, interleaved (the last 2 MB). */
  logs(): string;
  /** SIGTERM, waits for the exit, SIGKILL after 10 s. */
  stop(): Promise<void>;
  /** SIGKILL, as in a crash. Resolves once it has exited. */
  kill(): Promise<void>;
  /** Exit code, or null when a signal ended it. */
  readonly exited: Promise<number | null>;
}

const OUTPUT_LIMIT_BYTES = 2 * 1024 * 1024;
const STOP_GRACE_MS = 10_000;
const READY_POLL_INTERVAL_MS = 100;
const READY_REQUEST_TIMEOUT_MS = 2_000;

// Resolved from the testkit, so it works whatever the cwd of the test run is.
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

/**
 * Starts a TypeScript entry point as a separate Node process (as it runs in distributed mode),
 * waits until `readyUrl` answers 200, and fails fast, with the process's output, when it exits
 * before that.
 */
export async function startProcess(options: StartProcessOptions): Promise<ManagedProcess> {
  const { name } = options;
  const entry = resolve(options.entry);
  if (!existsSync(entry)) throw new Error(`startProcess(${name}): entry ${entry} does not exist`);
  const timeoutMs = options.timeoutMs ?? 30_000;

  const output = new BoundedOutput(OUTPUT_LIMIT_BYTES);
  const child = await spawnOwnedChild(process.execPath, ["--import", tsxLoader, entry], {
    // A gateway process's management listener (GET /metrics) takes a free port unless the test
    // names one: the services' fixed defaults would collide between tests run side by side.
    env: { ...process.env, MANAGEMENT_PORT: "0", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.process.stdout?.on("data", (chunk: Buffer) => output.append(chunk));
  child.process.stderr?.on("data", (chunk: Buffer) => output.append(chunk));
  if (options.echo) {
    const prefix = `[${name}] `;
    const mirror = (chunk: Buffer) => process.stdout.write(chunk.toString("utf8").replace(/^(?=.)/gm, prefix));
    child.process.stdout?.on("data", mirror);
    child.process.stderr?.on("data", mirror);
  }

  const managed: ManagedProcess = {
    name,
    pid: child.pid,
    logs: () => output.toString(),
    stop: () => child.terminate(STOP_GRACE_MS),
    kill: () => child.kill(),
    exited: child.exited,
  };
  if (options.readyUrl !== undefined) await waitUntilReady(managed, child.hasExited, options.readyUrl, timeoutMs);
  return managed;
}

async function waitUntilReady(managed: ManagedProcess, hasExited: () => boolean, readyUrl: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastProblem = "no answer yet";
  while (Date.now() < deadline) {
    if (hasExited()) {
      const code = await managed.exited;
      throw new Error(`${managed.name} exited (code ${code}) before ${readyUrl} answered 200.\n${formatLogs(managed)}`);
    }
    try {
      const response = await fetch(readyUrl, { signal: AbortSignal.timeout(READY_REQUEST_TIMEOUT_MS) });
      await response.body?.cancel();
      if (response.status === 200) return;
      lastProblem = `HTTP ${response.status}`;
    } catch (err) {
      lastProblem = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    }
    await sleep(READY_POLL_INTERVAL_MS);
  }
  await managed.kill();
  throw new Error(`${managed.name}: ${readyUrl} did not answer 200 within ${timeoutMs} ms (last: ${lastProblem}).\n${formatLogs(managed)}`);
}

function formatLogs(managed: ManagedProcess): string {
  return `--- ${managed.name} output ---\n${managed.logs().trimEnd() || "(no output)"}\n--- end of ${managed.name} output ---`;
}
