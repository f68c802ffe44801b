import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";

const SHUTDOWN_MODULE = new URL("../src/lifecycle/shutdown.ts", import.meta.url).href;
const LOGGER_MODULE = new URL("../src/logger.ts", import.meta.url).href;
const PARENT_PIPE_MODULE = new URL("../src/lifecycle/parent-pipe.ts", import.meta.url).href;

/** Runs a child process that installs graceful shutdown with the given steps source. */
function runChild(
  stepsSource: string,
  signals: NodeJS.Signals[],
): Promise<{ code: number | null; stdout: string }> {
  const script = `
    import { installGracefulShutdown } from ${JSON.stringify(SHUTDOWN_MODULE)};
    import { createLogger } from ${JSON.stringify(LOGGER_MODULE)};
    const logger = createLogger({ service: "child", level: "silent" });
    installGracefulShutdown(logger, ${stepsSource});
    console.log("ready");
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stdout = "";
  return new Promise((resolve) => {
    child.stdout.on("data", (chunk: Buffer) => {
      const before = stdout;
      stdout += String(chunk);
      if (!before.includes("ready") && stdout.includes("ready")) {
        signals.forEach((s, i) => {
          setTimeout(() => child.kill(s), 100 * i);
        });
      }
    });
    child.on("exit", (code) => resolve({ code, stdout }));
  });
}

describe("graceful shutdown", () => {
  it("when SIGTERM arrives, then steps run in order, a failing step does not stop the rest, and the process exits 0", async () => {
    const { code, stdout } = await runChild(
      `[
        { name: "server", run: async () => { console.log("step server"); } },
        { name: "broken", run: async () => { throw new Error("nope"); } },
        { name: "mongo", run: async () => { console.log("step mongo"); } },
      ]`,
      ["SIGTERM"],
    );
    expect(code).toBe(0);
    expect(stdout.match(/step \w+/g)).toEqual(["step server", "step mongo"]);
  });

  it("when a second signal arrives during shutdown, then the process exits at once with 1", async () => {
    const started = Date.now();
    const { code, stdout } = await runChild(
      `[{ name: "stuck", run: () => { console.log("step stuck"); return new Promise(() => {}); } }]`,
      ["SIGINT", "SIGINT"],
    );
    expect(code).toBe(1);
    expect(stdout).toContain("step stuck");
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

/** A child with our shutdown under a 300 ms deadline, its log lines on stdout, and a pipe from us as fd 3. */
function runDeadlineChild(
  stepsSource: string,
  trigger: "SIGTERM" | "close-pipe",
): Promise<{ code: number | null; stdout: string }> {
  const script = `
    import { installGracefulShutdown } from ${JSON.stringify(SHUTDOWN_MODULE)};
    import { watchParentPipe } from ${JSON.stringify(PARENT_PIPE_MODULE)};
    import { createLogger } from ${JSON.stringify(LOGGER_MODULE)};
    const logger = createLogger({ service: "child", level: "info" });
    const shutdown = installGracefulShutdown(logger, ${stepsSource}, { timeoutMs: 300, abandonGraceMs: 500 });
    watchParentPipe(() => shutdown.begin("launcher gone"));
    console.log("ready");
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit", "pipe"],
    env: { ...process.env, GATEWAY_PARENT_PIPE_FD: "3" },
  });
  let stdout = "";
  return new Promise((resolve) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const before = stdout;
      stdout += String(chunk);
      if (before.includes("ready") || !stdout.includes("ready")) return;
      if (trigger === "SIGTERM") child.kill("SIGTERM");
      else (child.stdio[3] as NodeJS.WritableStream & { destroy(): void }).destroy();
    });
    child.on("exit", (code) => resolve({ code, stdout }));
  });
}

describe("bounded shutdown", () => {
  it("when a step outlives the deadline, then it and the steps after it are abandoned, logged by name, their abandon hooks run, and the process exits 1", async () => {
    const { code, stdout } = await runDeadlineChild(
      `[
        { name: "server", run: async () => {} },
        { name: "nats", run: () => new Promise(() => {}), abandon: () => { console.log("nats abandoned"); } },
        { name: "mongo", run: async () => { console.log("mongo closed"); }, abandon: () => { console.log("mongo abandoned"); } },
      ]`,
      "SIGTERM",
    );
    expect(code).toBe(1);
    expect(stdout).toContain("nats abandoned");
    expect(stdout).toContain("mongo abandoned");
    expect(stdout).not.toContain("mongo closed");
    const abandonLine = stdout.split("\n").find((line) => line.includes("abandoning unfinished work"));
    expect(JSON.parse(abandonLine ?? "{}").abandoned).toEqual(["nats", "mongo"]);
  });

  it("when the launcher's pipe closes, then the shutdown runs as on SIGTERM and, every step done in time, the process exits 0", async () => {
    const { code, stdout } = await runDeadlineChild(
      `[{ name: "server", run: async () => { console.log("server closed"); } }]`,
      "close-pipe",
    );
    expect(code).toBe(0);
    expect(stdout).toContain("server closed");
    expect(stdout).toContain('"reason":"launcher gone"');
  });
});
