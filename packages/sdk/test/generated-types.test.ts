import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const script = new URL("../scripts/generate.mjs", import.meta.url).pathname;

describe("the generated client types", () => {
  it("are exactly what openapi-typescript makes of docs/api/openapi.json (npm run generate -w @gateway/sdk)", async () => {
    const result = await run(process.execPath, [script, "--check"]).then(
      (r) => ({ code: 0, out: r.stdout }),
      (e: { code: number; stderr: string }) => ({ code: e.code, out: e.stderr }),
    );
    expect(result, result.out).toEqual({ code: 0, out: expect.stringContaining("up to date") });
  }, 60_000);
});
