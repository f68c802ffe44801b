// Builds a workspace's publishable package into one folder: the JavaScript and .d.ts that tsc makes
// from its src/, its README, and a package.json whose `exports`/`types` (and `bin`, when given)
// point at those files. The workspace's own package.json keeps pointing at src/*.ts, so this
// repository runs the sources through tsx and never needs a build first; only the built folder is
// packed (`npm run package -w <workspace>`). Used by packages/webhook-signature and packages/sdk.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

/**
 * @param {{ packageDir: string, outDir: string, references?: string[], manifest?: Record<string, unknown> }} options
 *   references: tsconfig.build.json files of workspace dependencies, built first (tsc -b) so their
 *   declarations exist; manifest: members added to the published package.json.
 */
export function buildPublishablePackage({ packageDir, outDir, references = [], manifest = {} }) {
  for (const reference of references)
    execFileSync(process.execPath, [tsc, "-b", reference], { stdio: "inherit" });
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

  const source = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  const published = {
    name: source.name,
    version: source.version,
    description: source.description,
    type: "module",
    engines: { node: ">=20.19" },
    sideEffects: false,
    exports: { ".": { types: "./index.d.ts", default: "./index.js" }, "./package.json": "./package.json" },
    main: "./index.js",
    types: "./index.d.ts",
    ...manifest,
  };
  writeFileSync(join(outDir, "package.json"), `${JSON.stringify(published, null, 2)}\n`);
  copyFileSync(join(packageDir, "README.md"), join(outDir, "README.md"));
  console.log(`built ${published.name}@${published.version} into ${outDir}`);
  return published;
}
