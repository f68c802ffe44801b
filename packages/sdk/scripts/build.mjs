// Builds the publishable package into one folder (default publish/, or the folder given as the only
// argument), as packages/webhook-signature does (scripts/build-publishable-package.mjs), with the
// `gateway` command as its bin and the workspace's pinned dependencies; `npm run package` packs it.
import { chmodSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildPublishablePackage } from "../../../scripts/build-publishable-package.mjs";

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = resolve(process.argv[2] ?? join(packageDir, "publish"));
const { dependencies } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
buildPublishablePackage({
  packageDir,
  outDir,
  // The verifier is a project reference: its declarations (dist/, the workspace build's) come first.
  references: [join(packageDir, "../webhook-signature/tsconfig.build.json")],
  manifest: {
    bin: { gateway: "./cli/bin.js" },
    // @gateway/webhook-signature is published beside this package, at the same version.
    dependencies,
    keywords: ["payments", "checkout", "openapi", "webhooks", "sdk"],
  },
});
chmodSync(join(outDir, "cli/bin.js"), 0o755);
