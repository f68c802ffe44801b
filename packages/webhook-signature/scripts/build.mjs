// Builds the publishable package into one folder (default publish/, or the folder given as the only
// argument); see scripts/build-publishable-package.mjs. `npm run package` packs that folder.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildPublishablePackage } from "../../../scripts/build-publishable-package.mjs";

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
buildPublishablePackage({
  packageDir,
  outDir: resolve(process.argv[2] ?? join(packageDir, "publish")),
  manifest: { keywords: ["webhooks", "standard-webhooks", "hmac", "signature", "payments"] },
});
