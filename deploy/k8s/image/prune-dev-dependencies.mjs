#!/usr/bin/env node
// Removes the devDependencies of an `npm ci` install, except the ones named with --keep and
// everything they need, using package-lock.json as the map of what is installed where.
//
// Why not `npm ci --omit=dev`: it would give the same tree today (tsx, which the services run
// TypeScript through, is a dependency of the workspace root), but the image must never lose tsx
// should it move back among the devDependencies, and pruning from the one full install keeps a
// single `npm ci` in the build. The lockfile fixes where every package is installed, so "full
// install minus the dev-only packages outside the kept closure" is exactly the tree
// `npm ci --omit=dev` would give, plus what --keep names. No network access, no npm involved.
//
// Usage: node prune-dev-dependencies.mjs <install-root> --keep tsx [--keep other] [--dry-run]
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

function parseArgs(argv) {
  const args = { root: undefined, keep: [], dryRun: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--keep") {
      const name = argv[++i];
      if (!name) throw new Error("--keep needs a package name");
      args.keep.push(name);
    } else if (arg === "--dry-run") {
      args.dryRun = true;
    } else if (!args.root) {
      args.root = arg;
    } else {
      throw new Error(`unexpected argument '${arg}'`);
    }
  }
  if (!args.root) throw new Error("usage: prune-dev-dependencies.mjs <install-root> --keep <name> [--dry-run]");
  return args;
}

/** The lockfile location that Node's resolution finds for `name` required from `fromPath`. */
function resolveFrom(packages, fromPath, name) {
  let base = fromPath;
  for (;;) {
    const candidate = `${base ? `${base}/` : ""}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return undefined;
    // Up one level: "a/node_modules/b" -> "a", "node_modules/b" -> "", "services/edge" -> "".
    const at = base.lastIndexOf("node_modules/");
    base = at <= 0 ? "" : base.slice(0, at - 1);
  }
}

/** Every lockfile location needed at run time by the packages named in `keep`. */
function closureOf(packages, keep) {
  const needed = new Set();
  const pending = [];
  for (const name of keep) {
    const location = resolveFrom(packages, "", name);
    if (!location) throw new Error(`--keep ${name}: the lockfile has no node_modules/${name}`);
    pending.push(location);
  }
  while (pending.length > 0) {
    const location = pending.pop();
    if (needed.has(location)) continue;
    needed.add(location);
    const entry = packages[location];
    // Workspace links resolve their own dependencies from the linked folder.
    const from = entry.link ? entry.resolved : location;
    if (entry.link && packages[entry.resolved]) pending.push(entry.resolved);
    const target = packages[from] ?? entry;
    const names = {
      ...target.dependencies,
      ...target.optionalDependencies,
      ...target.peerDependencies,
    };
    for (const dependency of Object.keys(names)) {
      const found = resolveFrom(packages, from, dependency);
      // Optional (other-platform) and unmet optional peer dependencies are simply absent.
      if (found) pending.push(found);
    }
  }
  return needed;
}

/** Deletes symlinks in node_modules/.bin folders whose package was removed. */
function removeDanglingBinLinks(dir, dryRun) {
  let removed = 0;
  if (!existsSync(dir)) return removed;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.name === ".bin" && entry.isDirectory()) {
      for (const link of readdirSync(path)) {
        const linkPath = join(path, link);
        if (!lstatSync(linkPath).isSymbolicLink()) continue;
        let dangling = false;
        try {
          statSync(linkPath);
        } catch {
          dangling = true;
        }
        if (dangling) {
          if (!dryRun) rmSync(linkPath, { force: true });
          removed++;
        }
      }
    } else if (entry.isDirectory() && !entry.isSymbolicLink()) {
      removed += removeDanglingBinLinks(path, dryRun);
    }
  }
  return removed;
}

function main() {
  const { root, keep, dryRun } = parseArgs(process.argv.slice(2));
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
  if (!lock.packages || (lock.lockfileVersion ?? 0) < 2) {
    throw new Error("package-lock.json must be lockfileVersion 2 or 3 (npm 7+)");
  }
  const packages = lock.packages;
  const needed = closureOf(packages, keep);

  let removed = 0;
  for (const [location, entry] of Object.entries(packages)) {
    if (!location || !entry.dev || needed.has(location)) continue;
    const path = join(root, location);
    if (!existsSync(path)) continue; // another platform's optional package, or inside one removed already
    if (!dryRun) rmSync(path, { recursive: true, force: true });
    removed++;
  }
  const links = removeDanglingBinLinks(root, dryRun);
  const kept = [...needed].filter((location) => packages[location]?.dev && existsSync(join(root, location))).sort();
  process.stdout.write(
    `${dryRun ? "would remove" : "removed"} ${removed} dev-only packages and ${links} dangling bin links; ` +
      `kept ${kept.length} dev packages for run time: ${kept.join(", ")}\n`,
  );
}

try {
  main();
} catch (err) {
  process.stderr.write(`prune-dev-dependencies: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
