import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter } from "node:path";
import {
  compiledEntry,
  type DistributedGateway,
  SERVICE_NODE_ARGS,
  type ServiceName,
  serviceEntries,
  startDistributedGateway,
} from "@gateway/launcher";
import { COMPILED_CONDITION } from "@gateway/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { merchantApi } from "./support/http.js";
import { payWithCard } from "./support/pay-with-card.js";

// Issue 16 item 1: production runs the JavaScript `npm run build` writes, with plain node, no
// TypeScript compiler at start. This builds, then runs every service of the distributed stack
// from its dist/ with no tsx on PATH or in node's loader, and pays a session through it.
const repoRoot = new URL("../../", import.meta.url);

/** `npm run build`, as the image's build stage runs it. */
function build(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "build"], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`npm run build exited ${code}:\n${output}`)),
    );
  });
}

/** PATH without any node_modules/.bin, so no tsx (or tsc) binary can be found from the services. */
function pathWithoutNodeModules(): string {
  return (process.env.PATH ?? "")
    .split(delimiter)
    .filter((entry) => !entry.split(/[\\/]/).includes("node_modules"))
    .join(delimiter);
}

/**
 * NODE_OPTIONS for the services: nothing inherited (no `--import tsx`), and on Node versions that
 * strip TypeScript types natively (22.6+, 24), that switched off, so a .ts file reached by
 * mistake fails the start instead of running.
 */
function nodeOptionsWithoutTypeScript(): string {
  return process.allowedNodeEnvironmentFlags.has("--experimental-strip-types")
    ? "--no-experimental-strip-types"
    : "";
}

/** What a running process was started with, read from Linux's /proc. */
function commandLineOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
}

function environmentOf(pid: number): Map<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
  return new Map(
    entries.map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
  );
}

describe("compiled services, plain node", () => {
  let gw: DistributedGateway;

  beforeAll(async () => {
    await build();
    gw = await startDistributedGateway({
      mongodbUrl: process.env.MONGODB_URL,
      natsUrl: process.env.NATS_URL,
      databasePrefix: `e2e_compiled_${Date.now().toString(36)}`,
      runtime: "compiled",
      env: { PATH: pathWithoutNodeModules(), NODE_OPTIONS: nodeOptionsWithoutTypeScript() },
    });
  });

  afterAll(async () => {
    await gw?.stop();
  });

  it("writes a dist/ entry for every service, with the assets it reads at run time", () => {
    for (const entry of Object.values(serviceEntries))
      expect(existsSync(compiledEntry(entry)), compiledEntry(entry)).toBe(true);
    expect(existsSync(new URL("services/edge/dist/checkout/assets/checkout.css", repoRoot))).toBe(true);
  });

  it("starts every service from dist/ with node alone, each answering /readyz", async () => {
    const names = Object.keys(serviceEntries) as ServiceName[];
    expect(Object.keys(gw.processes).sort()).toEqual([...names].sort());
    for (const name of names) {
      const { pid } = gw.processes[name];
      const args = commandLineOf(pid);
      expect(args[0], name).toBe(process.execPath);
      // As the image's entrypoint runs it (deploy/k8s/Dockerfile).
      expect(args.slice(1), name).toEqual([
        `--conditions=${COMPILED_CONDITION}`,
        ...SERVICE_NODE_ARGS,
        compiledEntry(serviceEntries[name]),
      ]);
      const env = environmentOf(pid);
      expect(env.get("NODE_OPTIONS") ?? "", name).not.toMatch(/tsx|--import|--loader/);
      expect(env.get("PATH"), name).not.toMatch(/node_modules/);
      const ready = await fetch(`http://127.0.0.1:${env.get("PORT")}/readyz`);
      expect(ready.status, `${name} /readyz`).toBe(200);
    }
  });

  it("pays a session end to end through the compiled edge, sessions, accounts and simulator", async () => {
    const api = merchantApi(gw.edgeUrl, gw.demoTestKey!);
    const created = await api.createSession({
      merchant_reference: "compiled-1",
      amount: "12.500",
      return_url: "https://shop.example/ok",
    });
    expect(created.status, created.text).toBe(201);
    await payWithCard(created.body.checkout_url, { number: "4242424242424242" });
    const session = (await api.getSession(created.body.id)).body;
    expect(session.status).toBe("SUCCEEDED");
  });
});
