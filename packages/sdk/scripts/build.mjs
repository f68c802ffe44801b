// Builds the publishable package into one folder (default publish/, or the folder given as the only
// argument), as packages/webhook-signature does: the JavaScript and .d.ts that tsc makes from src/,
// the README, and a package.json whose `exports`/`types`/`bin` point at those files. The workspace's
// own package.json keeps pointing at src/index.ts, so this repository runs the sources through tsx
// and never needs a build first; only this folder is packed (`npm run package`).
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = resolve(process.argv[2] ?? join(packageDir, "publish"));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

// The verifier is a project reference: its declarations (dist/, the workspace build's) come first.
execFileSync(process.execPath, [tsc, "-b", join(packageDir, "../webhook-signature/tsconfig.build.json")], {
  stdio: "inherit",
});
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
// The workspace build (`npm run build`, tsc -b) owns dist/ and its build info: this one writes
// its build info beside its own output and removes it, so neither build trips over the other.
const buildInfo = join(outDir, "tsconfig.tsbuildinfo");
execFileSync(
  process.execPath,
  [tsc, "-p", join(packageDir, "tsconfig.build.json"), "--outDir", outDir, "--tsBuildInfoFile", buildInfo],
  { stdio: "inherit" },
);
rmSync(buildInfo, { force: true });
chmodSync(join(outDir, "cli/bin.js"), 0o755);

const source = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
const manifest = {
  name: source.name,
  version: source.version,
  description: source.description,
  type: "module",
  engines: { node: ">=20.19" },
  sideEffects: false,
  exports: { ".": { types: "./index.d.ts", default: "./index.js" }, "./package.json": "./package.json" },
  main: "./index.js",
  types: "./index.d.ts",
  bin: { gateway: "./cli/bin.js" },
  // The same pinned versions the workspace uses; @gateway/webhook-signature is published beside it.
  dependencies: source.dependencies,
  keywords: ["payments", "checkout", "openapi", "webhooks", "sdk"],
};
writeFileSync(join(outDir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
copyFileSync(join(packageDir, "README.md"), join(outDir, "README.md"));
console.log(`built ${manifest.name}@${manifest.version} into ${outDir}`);
