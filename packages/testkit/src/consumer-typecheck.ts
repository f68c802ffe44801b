import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const nodeTypes = fileURLToPath(new URL("../../../node_modules/@types", import.meta.url));

/**
 * Type-checks one file of a package consumer outside the repository (an installed tarball), as a
 * merchant's strict TypeScript project would: strict, NodeNext, Node's types. Answers tsc's
 * diagnostics, "" when the file type-checks.
 */
export async function typecheckConsumerFile(cwd: string, file: string): Promise<string> {
  const flags = ["--noEmit", "--strict", "--module", "nodenext", "--target", "es2022", "--lib", "es2023,dom"];
  return run(process.execPath, [tsc, ...flags, "--types", "node", "--typeRoots", nodeTypes, file], {
    cwd,
  }).then(
    () => "",
    (error: { stdout?: string; message: string }) => error.stdout || error.message,
  );
}
