import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";

const SHUTDOWN_MODULE = new URL("../src/lifecycle/shutdown.ts", import.meta.url).href;
const LOGGER_MODULE = new URL("../src/logger.ts", import.meta.url).href;

/** Runs a child process that installs graceful shutdown with the given steps source. */
function runChild(stepsSource: string, signals: NodeJS.Signals[]): Promise<{ code: number | null; stdout: string }> {
  const script = `
    import { installGracefulShutdown } from ${JSON.stringify(SHUTDOWN_MODULE)};
    import { createLogger } from ${JSON.stringify(LOGGER_MODULE)};
    const logger = createLogger({ service: "child", level: "silent" });
    installGracefulShutdown(logger, ${stepsSource});
    console.log("ready");
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  let stdout = "";
  return new Promise((resolve) => {
    child.stdout.on("data", (chunk: Buffer) => {
      const before = stdout;
      stdout += String(chunk);
      if (!before.includes("ready") && stdout.includes("ready")) {
        signals.forEach((s, i) => setTimeout(() => child.kill(s), 100 * i));
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
    const { code, stdout } = await runChild(`[{ name: "stuck", run: () => { console.log("step stuck"); return new Promise(() => {}); } }]`, ["SIGINT", "SIGINT"]);
    expect(code).toBe(1);
    expect(stdout).toContain("step stuck");
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
