import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EMBEDDED_NODE_ARGS } from "../src/embedded-launch.js";

describe("embedded gateway's node arguments", () => {
  it("when a newcomer runs npm start, then node gets the same arguments as every embedded process the tests and benchmarks start", () => {
    const { scripts } = JSON.parse(
      readFileSync(new URL("../../../package.json", import.meta.url), "utf8"),
    ) as {
      scripts: Record<string, string>;
    };
    const start = scripts.start!.split(" ");
    expect(start[0]).toBe("node");
    for (const arg of EMBEDDED_NODE_ARGS) expect(start.slice(0, start.indexOf("--import"))).toContain(arg);
  });

  it("when node starts with them, then this runtime accepts them", () => {
    // An unknown V8 flag makes node exit with "bad option"; a known one shows in V8's own flags.
    const out = execFileSync(process.execPath, [...EMBEDDED_NODE_ARGS, "-e", "process.stdout.write('ok')"], {
      encoding: "utf8",
    });
    expect(out).toBe("ok");
    const options = execFileSync(process.execPath, ["--v8-options"], { encoding: "utf8" });
    expect(options).toContain("--heap-growing-percent");
  });
});
