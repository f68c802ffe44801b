import { existsSync } from "node:fs";
import { join } from "node:path";
import { cacheDir } from "./local-servers/binaries.js";

/**
 * A command of the Python tools venv (scripts/python-tools.txt, installed by
 * scripts/install-python-tools.sh, which .ci/run runs). Missing is an error that says how to
 * install it, never a skipped test.
 */
export function pythonTool(name: "openapi-spec-validator" | "st"): string {
  const venv = process.env.GATEWAY_PYTHON_TOOLS ?? join(cacheDir(), "python-tools");
  const bin = join(venv, "bin", name);
  if (!existsSync(bin))
    throw new Error(`${bin} is missing: run 'bash scripts/install-python-tools.sh' (CI does, in .ci/run)`);
  return bin;
}
