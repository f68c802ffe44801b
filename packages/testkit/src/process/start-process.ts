import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { DEFAULT_SHUTDOWN_TIMEOUT, PARENT_PIPE_FD_ENV, parseDuration } from "@gateway/platform";
import { BoundedOutput } from "./bounded-output.js";
import { spawnOwnedChild } from "./owned-child.js";

export interface StartProcessOptions {
  /** Shown in errors: "sessions". */
  name: string;
  /**
   * The file to run; relative paths are from the cwd. With the tsx runtime a .ts (or .js) file,
   * run as `node --import tsx <entry>`; with the compiled runtime a .js file under a dist/.
   */
  entry: string;
  /**
   * "tsx" (default): TypeScript compiled by tsx as it loads (development, tests).
   * "compiled": the JavaScript `npm run build` wrote, run by plain node as the image runs it
   * (`node --conditions=gateway-compiled <entry>`), with no TypeScript tooling involved.
   */
  runtime?: ProcessRuntime;
  /** Added to this process's environment (PATH, HOME… are inherited); these values win. */
  env: Record<string, string>;
  /** Node's own arguments, after the runtime's and before the entry (V8 flags). */
  nodeArgs?: readonly string[];
  /** Polled with GET until it answers 200; without it the process counts as ready once spawned. */
  readyUrl?: string;
  /** Limit for readiness; 30 s by default. */
  timeoutMs?: number;
  /** Also copy each output line to this process's stdout, prefixed with the name (npm run stack). */
  echo?: boolean;
}

export type ProcessRuntime = "tsx" | "compiled";

/**
 * The package.json export condition under which every workspace package resolves to its
 * compiled dist/index.js instead of src/index.ts (see docs/decisions.md, "Production runtime").
 */
export const COMPILED_CONDITION = "gateway-compiled";

/** Node's arguments before the entry, for each runtime. */
export function nodeArgsFor(runtime: ProcessRuntime): string[] {
  return runtime === "compiled" ? [`--conditions=${COMPILED_CONDITION}`] : ["--import", tsxLoader()];
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
  /**
   * Milliseconds from the spawn to the first 200 of readyUrl (start-up time, to within the
   * 20 ms poll interval); undefined without readyUrl.
   */
  readonly readyMs?: number;
}

const OUTPUT_LIMIT_BYTES = 2 * 1024 * 1024;
const STOP_GRACE_MS = 10_000;
const READY_POLL_INTERVAL_MS = 20;
const READY_REQUEST_TIMEOUT_MS = 2_000;

/** Past its own shutdown deadline (and the second its abandon takes), an orphaned child is SIGKILLed. */
const PARENT_DEATH_MARGIN_MS = 5_000;

function parentDeathGraceMs(env: NodeJS.ProcessEnv): number {
  const raw = env.GATEWAY_SHUTDOWN_TIMEOUT || DEFAULT_SHUTDOWN_TIMEOUT;
  let timeoutMs: number;
  try {
    timeoutMs = parseDuration(raw);
  } catch {
    // The child refuses to start with it; any grace will do.
    timeoutMs = parseDuration(DEFAULT_SHUTDOWN_TIMEOUT);
  }
  return timeoutMs + PARENT_DEATH_MARGIN_MS;
}

// Resolved from the testkit, so it works whatever the cwd of the test run is; only when asked
// for, so the compiled runtime works where tsx (a devDependency) is not installed.
function tsxLoader(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
}

/**
 * Starts an entry point as a separate Node process (as it runs in distributed mode),
 * waits until `readyUrl` answers 200, and fails fast, with the process's output, when it exits
 * before that.
 */
export async function startProcess(options: StartProcessOptions): Promise<ManagedProcess> {
  const { name } = options;
  const entry = resolve(options.entry);
  if (!existsSync(entry)) throw new Error(`startProcess(${name}): entry ${entry} does not exist`);
  const timeoutMs = options.timeoutMs ?? 30_000;

  const output = new BoundedOutput(OUTPUT_LIMIT_BYTES);
  const runtime = options.runtime ?? "tsx";
  if (runtime === "compiled" && !entry.endsWith(".js")) {
    throw new Error(`startProcess(${name}): the compiled runtime runs JavaScript, got ${entry}`);
  }
  const spawnedAt = performance.now();
  // fd 3 is a pipe the child watches (watchParentPipe in runService): it shuts down when this process dies.
  const child = await spawnOwnedChild(
    process.execPath,
    [...nodeArgsFor(runtime), ...(options.nodeArgs ?? []), entry],
    {
      // A gateway process's management listener (GET /metrics) takes a free port unless the test
      // names one: the services' fixed defaults would collide between tests run side by side.
      env: { ...process.env, MANAGEMENT_PORT: "0", ...options.env, [PARENT_PIPE_FD_ENV]: "3" },
      stdio: ["ignore", "pipe", "pipe", "pipe"],
      childWatchesPipeGraceMs: parentDeathGraceMs({ ...process.env, ...options.env }),
    },
  );
  child.process.stdout?.on("data", (chunk: Buffer) => output.append(chunk));
  child.process.stderr?.on("data", (chunk: Buffer) => output.append(chunk));
  if (options.echo) {
    const prefix = `[${name}] `;
    const mirror = (chunk: Buffer) =>
      process.stdout.write(chunk.toString("utf8").replace(/^(?=.)/gm, prefix));
    child.process.stdout?.on("data", mirror);
    child.process.stderr?.on("data", mirror);
  }

  let readyMs: number | undefined;
  const managed: ManagedProcess = {
    name,
    pid: child.pid,
    logs: () => output.toString(),
    stop: () => child.terminate(STOP_GRACE_MS),
    kill: () => child.kill(),
    exited: child.exited,
    get readyMs() {
      return readyMs;
    },
  };
  if (options.readyUrl !== undefined) {
    await waitUntilReady(managed, child.hasExited, options.readyUrl, timeoutMs);
    readyMs = Math.round(performance.now() - spawnedAt);
  }
  return managed;
}

async function waitUntilReady(
  managed: ManagedProcess,
  hasExited: () => boolean,
  readyUrl: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastProblem = "no answer yet";
  while (Date.now() < deadline) {
    if (hasExited()) {
      const code = await managed.exited;
      throw new Error(
        `${managed.name} exited (code ${code}) before ${readyUrl} answered 200.\n${formatLogs(managed)}`,
      );
    }
    try {
      const response = await fetch(readyUrl, { signal: AbortSignal.timeout(READY_REQUEST_TIMEOUT_MS) });
      await response.body?.cancel();
      if (response.status === 200) return;
      lastProblem = `HTTP ${response.status}`;
    } catch (err) {
      lastProblem =
        err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    }
    await sleep(READY_POLL_INTERVAL_MS);
  }
  await managed.kill();
  throw new Error(
    `${managed.name}: ${readyUrl} did not answer 200 within ${timeoutMs} ms (last: ${lastProblem}).\n${formatLogs(managed)}`,
  );
}

function formatLogs(managed: ManagedProcess): string {
  return `--- ${managed.name} output ---\n${managed.logs().trimEnd() || "(no output)"}\n--- end of ${managed.name} output ---`;
}
