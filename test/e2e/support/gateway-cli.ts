import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { waitFor } from "@gateway/testkit";

const BIN = fileURLToPath(new URL("../../../packages/sdk/src/cli/bin.ts", import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `gateway <args>` (the merchant CLI, from its sources) to completion. */
export function runGatewayCli(args: string[], env: Record<string, string>, stdin = ""): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = startGatewayCli(args, env);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

export function startGatewayCli(args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ["--import", "tsx", BIN, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NO_COLOR: "", ...env },
  });
}

/** A long-running `gateway` (listen): its stdout lines as they come, and a clean stop. */
export function watchGatewayCli(args: string[], env: Record<string, string>) {
  const child = startGatewayCli(args, env);
  const lines: string[] = [];
  let stderr = "";
  let pending = "";
  child.stdout.on("data", (c: Buffer) => {
    pending += c.toString();
    const parts = pending.split("\n");
    pending = parts.pop() ?? "";
    lines.push(...parts);
  });
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number>((resolve) => child.on("close", (code) => resolve(code ?? -1)));
  return {
    lines,
    stderr: () => stderr,
    waitForLine: (match: (line: string) => boolean, timeoutMs = 30_000) =>
      waitFor(() => lines.find(match), {
        timeoutMs,
        intervalMs: 50,
        message: `a CLI line; stderr: ${stderr}`,
      }),
    async stop(): Promise<number> {
      child.kill("SIGINT");
      return exited;
    },
  };
}
