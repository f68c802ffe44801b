import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LAYERS, repoRoot, sourceFiles } from "./source-files.js";

describe("fastify plugins", () => {
  it("when the gateway's code registers an encapsulated plugin, then it is a named function, so that spans and fastify's own messages name it (docs/decisions.md#fastify-plugins-are-named-functions)", () => {
    const files = LAYERS.flatMap((layer) =>
      readdirSync(join(repoRoot, layer)).flatMap((workspace) =>
        sourceFiles(join(repoRoot, layer, workspace, "src")),
      ),
    );
    expect(files.length).toBeGreaterThan(100);
    const anonymous = files.filter((file) =>
      /\.register\(\s*(?:async\s*)?\(/.test(readFileSync(file, "utf8")),
    );
    expect(anonymous).toEqual([]);
  });
});
