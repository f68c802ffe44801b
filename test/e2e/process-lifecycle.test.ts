import { fileURLToPath } from "node:url";
import { type DistributedGateway, launcherEntries, startDistributedGateway } from "@gateway/launcher";
import {
  freePort,
  type LocalServer,
  type ManagedProcess,
  startFerretDb,
  startNatsServer,
  startProcess,
  waitFor,
} from "@gateway/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { descendantsOf, isRunning, type ProcessInfo } from "./support/process-tree.js";

// Issue 18: a process stops in bounded time whatever its dependencies do, and nothing a
// launcher started outlives it, however it dies.
const SHUTDOWN_TIMEOUT = "3s";
/** Far above the 3 s deadline: a process still running after it hangs. Not a timing assertion. */
const HANG_LIMIT_MS = 45_000;
/** Each test starts a whole stack (several processes) on a loaded machine. */
const STACK_TEST_TIMEOUT_MS = 300_000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function exitedWithin(proc: ManagedProcess, ms: number): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(`${proc.name} (pid ${proc.pid}) still runs ${ms} ms after SIGTERM.\n${proc.logs()}`),
        ),
      ms,
    );
  });
  return Promise.race([proc.exited, hang]).finally(() => clearTimeout(timer));
}

/** Kills `launcher` with SIGKILL and waits until none of `children` runs any more. */
async function killAndExpectNoOrphans(launcher: ManagedProcess, children: ProcessInfo[]): Promise<void> {
  await launcher.kill();
  await waitFor(() => children.every((child) => !isRunning(child.pid)), {
    timeoutMs: HANG_LIMIT_MS,
    intervalMs: 250,
    message: `every child of the killed launcher to exit; still running: ${JSON.stringify(children.filter((c) => isRunning(c.pid)))}`,
  });
}

function expectWholeStack(children: ProcessInfo[]): void {
  const commands = children.map((c) => c.command);
  expect(commands.some((c) => c.includes("ferretdb"))).toBe(true);
  expect(commands.some((c) => c.includes("nats-server"))).toBe(true);
  for (const entry of ["edge", "accounts", "sessions", "refunds", "webhooks"]) {
    expect(commands.some((c) => c.includes(`services/${entry}/src/main.ts`))).toBe(true);
  }
  expect(commands.some((c) => c.includes("simulator-main.ts"))).toBe(true);
}

describe("process lifecycle", () => {
  it(
    "when MongoDB and NATS are killed and then every service gets SIGTERM, then each exits within its deadline, non-zero only when it abandoned work",
    async () => {
      const mongo: LocalServer = await startFerretDb();
      cleanups.push(() => mongo.stop());
      const nats: LocalServer = await startNatsServer();
      cleanups.push(() => nats.stop());
      const gateway: DistributedGateway = await startDistributedGateway({
        mongodbUrl: mongo.url,
        natsUrl: nats.url,
        databasePrefix: "lifecycle_sigterm",
        env: { GATEWAY_SHUTDOWN_TIMEOUT: SHUTDOWN_TIMEOUT },
      });
      cleanups.push(() => gateway.stop());

      await mongo.kill();
      await nats.kill();
      const services = Object.values(gateway.processes);
      for (const proc of services) process.kill(proc.pid, "SIGTERM");
      const codes = await Promise.all(services.map((proc) => exitedWithin(proc, HANG_LIMIT_MS)));

      for (const [i, proc] of services.entries()) {
        const abandoned = proc.logs().includes("abandoning unfinished work");
        // Non-zero exactly when the deadline cut work short, and then the log names what.
        expect({ service: proc.name, code: codes[i], abandoned }).toEqual({
          service: proc.name,
          code: abandoned ? 1 : 0,
          abandoned,
        });
      }
    },
    STACK_TEST_TIMEOUT_MS,
  );

  it(
    "when npm run stack's launcher is killed with SIGKILL, then none of its children (services, FerretDB, nats-server) is left",
    async () => {
      const port = await freePort();
      const launcher = await startProcess({
        name: "stack",
        entry: launcherEntries.stack,
        env: {
          PORT: String(port),
          GATEWAY_SHUTDOWN_TIMEOUT: SHUTDOWN_TIMEOUT,
          MONGODB_URL: "",
          NATS_URL: "",
        },
        readyUrl: `http://127.0.0.1:${port}/readyz`,
        timeoutMs: 120_000,
      });
      cleanups.push(() => launcher.kill());
      const children = descendantsOf(launcher.pid);
      expectWholeStack(children);

      await killAndExpectNoOrphans(launcher, children);
    },
    STACK_TEST_TIMEOUT_MS,
  );

  it(
    "when the e2e harness holding a distributed gateway is killed with SIGKILL, then none of its children is left",
    async () => {
      const holder = await startProcess({
        name: "harness",
        entry: fileURLToPath(new URL("./support/hold-distributed-gateway.ts", import.meta.url)),
        env: { GATEWAY_SHUTDOWN_TIMEOUT: SHUTDOWN_TIMEOUT, MONGODB_URL: "", NATS_URL: "" },
      });
      cleanups.push(() => holder.kill());
      await waitFor(() => holder.logs().includes("ready "), {
        timeoutMs: 120_000,
        message: `the harness to start a gateway:\n${holder.logs()}`,
      });
      const children = descendantsOf(holder.pid);
      expectWholeStack(children);

      await killAndExpectNoOrphans(holder, children);
    },
    STACK_TEST_TIMEOUT_MS,
  );
});
