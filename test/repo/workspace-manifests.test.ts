import { existsSync, readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Issue 16 item 1: every workspace declares exactly what it imports, at pinned versions, and its
// build config references the workspaces it depends on (so `tsc -b` builds them first).
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const DEPENDENCY_FIELDS = [
  "dependencies",
  "devDependencies",
  "peerDependencies",
  "optionalDependencies",
] as const;
/** Version specs that pin nothing. */
const UNPINNED = new Set(["*", "", "latest", "x"]);

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

interface Workspace {
  dir: string;
  manifest: Manifest;
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

const rootManifest = readJson<Manifest>(join(repoRoot, "package.json"));
const workspaces: Workspace[] = ["packages", "services", "apps"].flatMap((group) =>
  readdirSync(join(repoRoot, group))
    .map((name) => join(repoRoot, group, name))
    .filter((dir) => existsSync(join(dir, "package.json")))
    .map((dir) => ({ dir, manifest: readJson<Manifest>(join(dir, "package.json")) })),
);

function* sourceFiles(dir: string): Generator<string> {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) yield path;
  }
}

/** "@scope/name/sub" -> "@scope/name", "name/sub" -> "name"; undefined for relative and node: imports. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:"))
    return undefined;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
  return builtinModules.includes(name) ? undefined : name;
}

/** Packages imported by the files under `dir`, each with one file that imports it. */
function importsUnder(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sourceFiles(dir)) {
    // TypeScript's own scanner: static imports and re-exports, import(), require(), import types.
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    for (const { fileName } of importedFiles) {
      const name = packageOf(fileName);
      if (name && !found.has(name)) found.set(name, relative(repoRoot, file));
    }
  }
  return found;
}

function declared(
  manifest: Manifest,
  fields: readonly (typeof DEPENDENCY_FIELDS)[number][],
): Map<string, string> {
  return new Map(fields.flatMap((field) => Object.entries(manifest[field] ?? {})));
}

describe("workspace manifests", () => {
  it("finds the workspaces", () => {
    expect(workspaces.map((w) => w.manifest.name)).toEqual(
      expect.arrayContaining(["@gateway/platform", "@gateway/edge", "@gateway/sessions"]),
    );
  });

  it("pin every dependency: no '*', 'latest' or empty versions", () => {
    const unpinned = [{ dir: repoRoot, manifest: rootManifest }, ...workspaces].flatMap(({ dir, manifest }) =>
      DEPENDENCY_FIELDS.flatMap((field) =>
        Object.entries(manifest[field] ?? {})
          .filter(([, version]) => UNPINNED.has(version.trim()))
          .map(
            ([name, version]) =>
              `${relative(repoRoot, join(dir, "package.json")) || "package.json"} ${field}.${name}: "${version}"`,
          ),
      ),
    );
    expect(unpinned).toEqual([]);
  });

  it("declare only dependencies the workspace imports (in src/ or test/)", () => {
    const unused = workspaces.flatMap(({ dir, manifest }) => {
      const imported = importsUnder(dir);
      return [...declared(manifest, DEPENDENCY_FIELDS).keys()]
        .filter((name) => !imported.has(name))
        .map((name) => `${manifest.name}: ${name}`);
    });
    expect(unused).toEqual([]);
  });

  it("import in src/ only what the workspace's dependencies declare (the image installs only those)", () => {
    const undeclared = workspaces.flatMap(({ dir, manifest }) => {
      const runtime = declared(manifest, ["dependencies", "peerDependencies", "optionalDependencies"]);
      return [...importsUnder(join(dir, "src"))]
        .filter(([name]) => name !== manifest.name && !runtime.has(name))
        .map(([name, file]) => `${manifest.name}: ${name} (imported by ${file})`);
    });
    expect(undeclared).toEqual([]);
  });

  it("import in tests only what the workspace or the repository root declares", () => {
    const rootDeclared = declared(rootManifest, DEPENDENCY_FIELDS);
    const undeclared = workspaces.flatMap(({ dir, manifest }) => {
      const own = declared(manifest, DEPENDENCY_FIELDS);
      return [...importsUnder(join(dir, "test"))]
        .filter(([name]) => name !== manifest.name && !own.has(name) && !rootDeclared.has(name))
        .map(([name, file]) => `${manifest.name}: ${name} (imported by ${file})`);
    });
    expect(undeclared).toEqual([]);
  });

  it("build each workspace after the workspaces it depends on (tsconfig.build.json references)", () => {
    const dirOf = new Map(workspaces.map((w) => [w.manifest.name, w.dir]));
    for (const { dir, manifest } of workspaces) {
      const config = readJson<{ references?: { path: string }[] }>(join(dir, "tsconfig.build.json"));
      const referenced = (config.references ?? [])
        .map((ref) => relative(repoRoot, join(dir, ref.path)))
        .sort();
      const expected = [...declared(manifest, ["dependencies"]).keys()]
        .filter((name) => dirOf.has(name))
        .map((name) => relative(repoRoot, join(dirOf.get(name)!, "tsconfig.build.json")))
        .sort();
      expect(referenced, manifest.name).toEqual(expected);
    }
    const solution = readJson<{ references: { path: string }[] }>(join(repoRoot, "tsconfig.build.json"));
    expect(solution.references.map((ref) => relative(repoRoot, join(repoRoot, ref.path))).sort()).toEqual(
      workspaces.map((w) => relative(repoRoot, join(w.dir, "tsconfig.build.json"))).sort(),
    );
  });
});
