import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");

/** Every TypeScript source file under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === "node_modules" || entry.name === "dist" ? [] : sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("fastify plugins", () => {
  it("when the gateway's sources register an encapsulated plugin, then it is a named function, so that spans and fastify's own messages name it (docs/decisions.md#fastify-plugins-are-named-functions)", () => {
    const files = ["services", "packages", "apps"].flatMap((top) =>
      readdirSync(join(root, top), { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .flatMap((d) => {
          const src = join(root, top, d.name, "src");
          try {
            return sources(src);
          } catch {
            return [];
          }
        }),
    );
    expect(files.length).toBeGreaterThan(100);
    const anonymous = files.filter((file) =>
      /\.register\(\s*(?:async\s*)?\(/.test(readFileSync(file, "utf8")),
    );
    expect(anonymous).toEqual([]);
  });
});
