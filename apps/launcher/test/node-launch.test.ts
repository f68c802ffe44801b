import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EMBEDDED_NODE_ARGS, GATEWAY_NODE_ARGS, SERVICE_NODE_ARGS } from "../src/node-launch.js";

const repoFile = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");

/** The image's ENTRYPOINT, as the JSON array the Dockerfile writes it in. */
function imageEntrypoint(): string[] {
  const line = repoFile("deploy/k8s/Dockerfile")
    .split("\n")
    .find((candidate) => candidate.startsWith("ENTRYPOINT "));
  if (line === undefined) throw new Error("deploy/k8s/Dockerfile has no ENTRYPOINT");
  return JSON.parse(line.slice("ENTRYPOINT ".length)) as string[];
}

describe("gateway processes' node arguments", () => {
  it("when a newcomer runs npm start, then node gets the same arguments as every embedded process the tests and benchmarks start", () => {
    const { scripts } = JSON.parse(repoFile("package.json")) as { scripts: Record<string, string> };
    const start = scripts.start!.split(" ");
    expect(start[0]).toBe("node");
    for (const arg of EMBEDDED_NODE_ARGS) expect(start.slice(0, start.indexOf("--import"))).toContain(arg);
  });

  it("when the production image starts a process, then its entrypoint gives node every distributed service's argument", () => {
    const entrypoint = imageEntrypoint();
    expect(entrypoint.slice(0, 3)).toEqual(["/usr/bin/tini", "--", "node"]);
    for (const arg of SERVICE_NODE_ARGS) expect(entrypoint.slice(3)).toContain(arg);
  });

  it("when an embedded process or a distributed service starts, then it gets every gateway argument too", () => {
    for (const arg of GATEWAY_NODE_ARGS) expect(EMBEDDED_NODE_ARGS).toContain(arg);
    for (const arg of GATEWAY_NODE_ARGS) expect(SERVICE_NODE_ARGS).toContain(arg);
  });

  it("when a distributed service starts, then its old generation may grow to four times what it kept, and an embedded process's to twice", () => {
    // One growth setting each: a second one on the same command line would silently win.
    const growth = (args: readonly string[]) =>
      args.filter((arg) => arg.startsWith("--heap-growing-percent="));
    expect(growth(SERVICE_NODE_ARGS)).toEqual(["--heap-growing-percent=300"]);
    expect(growth(EMBEDDED_NODE_ARGS)).toEqual(["--heap-growing-percent=100"]);
  });

  it("when a distributed service starts, then V8 marks on its main thread, and an embedded process keeps marking beside it", () => {
    expect(SERVICE_NODE_ARGS).toContain("--no-concurrent-marking");
    expect(EMBEDDED_NODE_ARGS.filter((arg) => arg.includes("concurrent-marking"))).toEqual([]);
  });

  it("when an embedded process starts, then V8 runs no collection to shrink its heap, and a distributed service keeps that collection", () => {
    expect(EMBEDDED_NODE_ARGS).toContain("--no-memory-reducer");
    expect(SERVICE_NODE_ARGS.filter((arg) => arg.includes("memory-reducer"))).toEqual([]);
  });

  it("when node starts with them, then this runtime accepts them", () => {
    // An unknown V8 flag makes node exit with "bad option"; a known one shows in V8's own flags.
    for (const args of [EMBEDDED_NODE_ARGS, SERVICE_NODE_ARGS]) {
      const out = execFileSync(process.execPath, [...args, "-e", "process.stdout.write('ok')"], {
        encoding: "utf8",
      });
      expect(out).toBe("ok");
    }
    const options = execFileSync(process.execPath, ["--v8-options"], { encoding: "utf8" });
    expect(options).toContain("--heap-growing-percent");
    expect(options).toContain("--allocation-site-pretenuring");
    expect(options).toContain("--concurrent-marking");
    expect(options).toContain("--memory-reducer");
  });
});
