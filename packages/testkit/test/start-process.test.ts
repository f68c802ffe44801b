import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { freePort, type ManagedProcess, startProcess } from "../src/index.js";

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

describe("startProcess", () => {
  const started: ManagedProcess[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => p.kill()));
  });

  it("when the process serves its ready URL, then it resolves with a running process whose logs are captured", async () => {
    const port = await freePort();
    const proc = await startProcess({
      name: "healthz",
      entry: fixture("healthz-server.ts"),
      env: { PORT: String(port), FIXTURE_GREETING: "hello" },
      readyUrl: `http://127.0.0.1:${port}/healthz`,
    });
    started.push(proc);

    expect(proc.pid).toBeGreaterThan(0);
    const response = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(await response.text()).toBe("ok");
    expect(proc.logs()).toContain(`fixture hello listening on ${port}`);
    expect(proc.logs()).toContain("fixture stderr line");
  });

  it("when stopped, then it gets SIGTERM, shuts down cleanly and exits with code 0", async () => {
    const port = await freePort();
    const proc = await startProcess({
      name: "healthz",
      entry: fixture("healthz-server.ts"),
      env: { PORT: String(port) },
      readyUrl: `http://127.0.0.1:${port}/healthz`,
    });
    started.push(proc);

    await proc.stop();

    expect(await proc.exited).toBe(0);
    expect(proc.logs()).toContain("fixture received SIGTERM");
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });

  it("when killed, then it exits by signal without a graceful shutdown", async () => {
    const port = await freePort();
    const proc = await startProcess({
      name: "healthz",
      entry: fixture("healthz-server.ts"),
      env: { PORT: String(port) },
      readyUrl: `http://127.0.0.1:${port}/healthz`,
    });
    started.push(proc);

    await proc.kill();

    expect(await proc.exited).toBeNull();
    expect(proc.logs()).not.toContain("fixture received SIGTERM");
  });

  it("when the process exits before it is ready, then it fails fast with the process's output", async () => {
    const startedAt = Date.now();
    const attempt = startProcess({
      name: "bad-config",
      entry: fixture("exits-early.ts"),
      env: {},
      readyUrl: "http://127.0.0.1:1/healthz",
      timeoutMs: 20_000,
    });

    await expect(attempt).rejects.toThrow(/bad-config exited \(code 3\)[\s\S]*fatal: MONGODB_URL is missing/);
    expect(Date.now() - startedAt).toBeLessThan(10_000);
  });

  it("when the ready URL never answers, then it fails after the timeout with the logs and kills the process", async () => {
    const port = await freePort();
    const dir = await mkdtemp(join(tmpdir(), "testkit-start-process-"));
    try {
      const pidFile = join(dir, "pid");
      const attempt = startProcess({
        name: "silent",
        entry: fixture("never-ready.ts"),
        env: { PID_FILE: pidFile },
        readyUrl: `http://127.0.0.1:${port}/healthz`,
        timeoutMs: 1_500,
      });

      await expect(attempt).rejects.toThrow(
        /silent: .* did not answer 200 within 1500 ms[\s\S]*never-ready fixture is up/,
      );
      const pid = Number(await readFile(pidFile, "utf8"));
      expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: "ESRCH" }));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("when the entry file does not exist, then it says which file", async () => {
    await expect(startProcess({ name: "ghost", entry: fixture("missing.ts"), env: {} })).rejects.toThrow(
      /missing\.ts does not exist/,
    );
  });
});
