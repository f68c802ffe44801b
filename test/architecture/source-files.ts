import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root folder. */
export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** The workspace layers of the monorepo, each a folder of workspaces. */
export const LAYERS = ["packages", "services", "apps"] as const;

/** Every TypeScript file under `dir` (none when it does not exist), skipping dependencies and generated or built code. */
export function sourceFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    if (entry === "node_modules" || entry === "gen" || entry === "dist") return [];
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.[cm]?tsx?$/.test(entry) ? [path] : [];
  });
}
