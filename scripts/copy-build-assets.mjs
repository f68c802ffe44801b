#!/usr/bin/env node
// Copies the files a compiled workspace reads at run time but tsc does not emit (the checkout
// stylesheet, read next to its module with `new URL("./assets/…", import.meta.url)`) from each
// workspace's src/ to the same place under its dist/. Part of `npm run build`, after `tsc -b`.
// Copied: every file under src/ that is neither TypeScript nor documentation.
import { copyFileSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const NOT_COPIED = /\.(ts|mts|cts|md)$/;

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

let copied = 0;
for (const group of ["packages", "services", "apps"]) {
  for (const workspace of readdirSync(join(repoRoot, group))) {
    const src = join(repoRoot, group, workspace, "src");
    const dist = join(repoRoot, group, workspace, "dist");
    if (!existsSync(src) || !existsSync(dist)) continue;
    for (const file of filesUnder(src)) {
      if (NOT_COPIED.test(file)) continue;
      const target = join(dist, relative(src, file));
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(file, target);
      copied++;
    }
  }
}
process.stdout.write(`copy-build-assets: ${copied} file(s) copied into dist/\n`);
