import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { generateServiceAuthKeys } from "@gateway/platform";

const MAIN = fileURLToPath(new URL("../../src/main.ts", import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** Resolves with the first stdout line that matches, rejects if the process ends first. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
}

/** Runs the accounts main.ts as its own process (via tsx), as in distributed mode. */
export function startAccountsProcess(env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN], {
    // MANAGEMENT_PORT 0: a free port for /metrics, never the fixed default another test may hold.
    // Service credentials are required to start; a test that calls the process passes the keys
    // its client signs with (GATEWAY_SERVICE_AUTH_KEYS), the others get fresh ones.
    env: {
      PATH: process.env.PATH ?? "",
      MANAGEMENT_PORT: "0",
      GATEWAY_SERVICE_AUTH_KEYS: generateServiceAuthKeys().accounts,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForLine(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const deadline = Date.now() + timeoutMs;
        const poll = setInterval(() => {
          const line = out.split("\n").find((l) => pattern.test(l));
          if (line !== undefined) {
            clearInterval(poll);
            resolve(line);
          } else if (child.exitCode !== null || Date.now() > deadline) {
            clearInterval(poll);
            reject(new Error(`no stdout line matching ${pattern}; stdout:\n${out}\nstderr:\n${err}`));
          }
        }, 25);
      });
    },
  };
}
