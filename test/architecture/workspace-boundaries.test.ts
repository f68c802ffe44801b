import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { LAYERS, repoRoot, sourceFiles } from "./source-files.js";

// The layering of the monorepo, checked over the workspace manifests and the import statements:
// packages/ are libraries that import no service and no application; applications (apps/)
// compose services; production code never imports the test-support package.

type Layer = (typeof LAYERS)[number];
/** Applications that may use the test-support package in their own code: `npm run stack` starts local servers. */
const MAY_USE_TESTKIT_IN_SRC = new Set(["@gateway/launcher", "@gateway/testkit"]);

interface Workspace {
  name: string;
  layer: Layer;
  dir: string;
  dependencies: Set<string>;
  devDependencies: Set<string>;
}

function readWorkspaces(): Workspace[] {
  return LAYERS.flatMap((layer) =>
    readdirSync(join(repoRoot, layer)).flatMap((entry) => {
      const dir = join(repoRoot, layer, entry);
      let manifest: { name: string; dependencies?: object; devDependencies?: object };
      try {
        manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      } catch {
        return [];
      }
      return [
        {
          name: manifest.name,
          layer,
          dir,
          dependencies: new Set(Object.keys(manifest.dependencies ?? {})),
          devDependencies: new Set(Object.keys(manifest.devDependencies ?? {})),
        },
      ];
    }),
  );
}

/** Workspace packages a file imports, re-exports or loads dynamically (`@gateway/<name>`). */
function gatewayImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const names = new Set<string>();
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["'](@gateway\/[a-z0-9-]+)/g))
    names.add(match[1]!);
  return [...names];
}

const workspaces = readWorkspaces();
const layerOf = new Map(workspaces.map((w) => [w.name, w.layer]));

describe("workspace boundaries", () => {
  it("finds the workspaces of every layer", () => {
    for (const layer of LAYERS) expect(workspaces.some((w) => w.layer === layer)).toBe(true);
  });

  it("when a package depends on anything, then it is another package, never a service or an application", () => {
    const offences = workspaces
      .filter((w) => w.layer === "packages")
      .flatMap((w) =>
        [...w.dependencies, ...w.devDependencies]
          .filter((dep) => layerOf.has(dep) && layerOf.get(dep) !== "packages")
          .map((dep) => `${w.name} declares ${dep}`),
      );
    expect(offences).toEqual([]);
  });

  it("when a package's code imports a workspace, then it is another package", () => {
    const offences = workspaces
      .filter((w) => w.layer === "packages")
      .flatMap((w) =>
        sourceFiles(w.dir).flatMap((file) =>
          gatewayImports(file)
            .filter((dep) => layerOf.has(dep) && layerOf.get(dep) !== "packages")
            .map((dep) => `${relative(repoRoot, file)} imports ${dep}`),
        ),
      );
    expect(offences).toEqual([]);
  });

  it("when production code imports a workspace, then it is declared as a dependency, and never the test kit", () => {
    const offences = workspaces.flatMap((w) =>
      sourceFiles(join(w.dir, "src")).flatMap((file) =>
        gatewayImports(file)
          .filter((dep) => dep !== w.name)
          .flatMap((dep) => {
            const where = `${relative(repoRoot, file)} imports ${dep}`;
            if (!layerOf.has(dep)) return [`${where}, which is no workspace`];
            if (dep === "@gateway/testkit" && !MAY_USE_TESTKIT_IN_SRC.has(w.name))
              return [`${where} (test support)`];
            return w.dependencies.has(dep) ? [] : [`${where} without declaring it in dependencies`];
          }),
      ),
    );
    expect(offences).toEqual([]);
  });

  it("when a test imports a workspace, then it is declared as a dependency or a devDependency", () => {
    const offences = workspaces.flatMap((w) =>
      sourceFiles(join(w.dir, "test")).flatMap((file) =>
        gatewayImports(file)
          .filter((dep) => dep !== w.name && !w.dependencies.has(dep) && !w.devDependencies.has(dep))
          .map((dep) => `${relative(repoRoot, file)} imports ${dep} without declaring it`),
      ),
    );
    expect(offences).toEqual([]);
  });

  it("when a service's code imports an application, then that is reported", () => {
    const offences = workspaces
      .filter((w) => w.layer === "services")
      .flatMap((w) =>
        sourceFiles(join(w.dir, "src")).flatMap((file) =>
          gatewayImports(file)
            .filter((dep) => layerOf.get(dep) === "apps")
            .map((dep) => `${relative(repoRoot, file)} imports ${dep}`),
        ),
      );
    expect(offences).toEqual([]);
  });
});
