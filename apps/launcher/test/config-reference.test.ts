import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderConfigTable, withConfigTable } from "../src/config-reference.js";
import { repoRoot } from "../src/service-entries.js";

describe("README configuration table", () => {
  it("lists every variable every process reads, as generated from the config specs", () => {
    const readme = readFileSync(`${repoRoot}README.md`, "utf8");
    // Fails when a config field is added or changed without `npm run docs:config`.
    expect(withConfigTable(readme)).toBe(readme);
  });

  it("marks required variables and shows each variable once", () => {
    const table = renderConfigTable([
      ["a", { x: { env: "X_URL", description: "where", parse: String } }],
      [
        "b",
        {
          x: { env: "X_URL", description: "where", parse: String },
          y: { env: "Y", description: "why", default: "1", parse: String },
        },
      ],
    ]);
    expect(table).toContain("| `X_URL` | **required** | a, b | where |");
    expect(table).toContain("| `Y` | `1` | b | why |");
  });
});
