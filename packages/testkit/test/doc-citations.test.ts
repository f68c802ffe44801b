import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { citationProblems, type DocIndex } from "./support/citation-rules.js";
import { headingAnchors } from "./support/source-comments.js";

// Source comments and the repository's own documents cite docs/api/ (the API reference) and
// docs/decisions.md, never documents that only exist outside the repository, and every file and
// #heading they cite exists.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** Tracked and new (not ignored) files: what the next commit holds. */
function repositoryFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  return [...new Set(out.split("\0").filter((path) => path !== ""))];
}

function docIndex(files: string[]): DocIndex {
  const docs = new Map<string, Set<string>>();
  for (const path of files) {
    if (path.startsWith("docs/") && path.endsWith(".md"))
      docs.set(path, headingAnchors(readFileSync(join(repoRoot, path), "utf8")));
  }
  return docs;
}

const CHECKED_FOLDERS = [
  "packages/",
  "services/",
  "test/",
  "deploy/",
  "bench/",
  "scripts/",
  "proto/",
  ".ci/",
];
const isChecked = (path: string): boolean =>
  (CHECKED_FOLDERS.some((folder) => path.startsWith(folder)) && !path.includes("node_modules/")) ||
  path.startsWith("docs/api/") ||
  path === "docs/architecture.md";

describe("citations in the repository", () => {
  const files = repositoryFiles();
  const docs = docIndex(files);

  it("when the API reference is listed, then its pages exist", () => {
    for (const page of [
      "README",
      "authentication-and-modes",
      "sessions",
      "checkout",
      "refunds",
      "webhooks",
      "errors",
      "limits",
    ]) {
      expect(docs.has(`docs/api/${page}.md`), page).toBe(true);
    }
  });

  it("when every source comment and document is read, then none cites an outside document or a missing docs/ file or heading", () => {
    const problems = files
      .filter(isChecked)
      .flatMap((path) => citationProblems(path, readFileSync(join(repoRoot, path), "utf8"), docs))
      .map((p) => `${p.path}:${p.line}: ${p.problem}`);
    expect(problems).toEqual([]);
  });
});

describe("citation rules", () => {
  const docs: DocIndex = new Map([
    ["docs/api/webhooks.md", new Set(["signatures", "event-types"])],
    ["docs/decisions.md", new Set(["webhooks"])],
  ]);
  const problemsOf = (path: string, text: string) =>
    citationProblems(path, text, docs).map((p) => `${p.line}: ${p.problem}`);

  it.each([
    ["the product decisions", '// Maps the list query (API-DECISIONS "List filters").'],
    ["a numbered spec section", "/** The refund result of spec 2.4. */"],
    ["a spec section by its word", "// Spec section 8 on every endpoint."],
    ["a bare section number", "/* Headers of section 6.3. */"],
    ["the spec itself", "// Paths exactly as the spec writes them."],
    ["the shared design brief", "// Read ../shared/DESIGN.md first."],
  ])("when a TypeScript comment cites %s, then it is reported on its line", (_name, comment) => {
    expect(problemsOf("services/x/src/a.ts", `const a = 1;\n${comment}\nexport {};\n`)).toEqual([
      expect.stringMatching(/^2: cites .*docs\/api\//),
    ]);
  });

  it("when the same words are in strings, template literals or regular expressions, then they are not comments", () => {
    const code = [
      'const a = "see spec 4.5 // not a comment";',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a source file, not a template
      "const b = `API-DECISIONS ${a} section 8`;",
      "const c = /spec 7\\.2\\/\\//;",
      "export { a, b, c };",
    ].join("\n");
    expect(problemsOf("services/x/src/a.ts", code)).toEqual([]);
  });

  it("when a comment cites an RFC section, then that is allowed", () => {
    expect(
      problemsOf("services/x/src/a.ts", "// Second 60 is a leap second (RFC 3339 section 5.7).\n"),
    ).toEqual([]);
  });

  it("when a comment cites existing docs/api pages and headings, then it passes; a missing page or heading is reported", () => {
    const code = [
      "// Signed as docs/api/webhooks.md#signatures says; see docs/decisions.md#webhooks.",
      "// Events: docs/api/webhooks.md#event-types and docs/api/webhooks.md.",
      "// Nope: docs/api/webhook.md",
      "// Nope: docs/api/webhooks.md#signature",
      "// Nope: docs/decisions.md#no-such-decision",
    ].join("\n");
    expect(problemsOf("packages/x/src/a.ts", code)).toEqual([
      "3: cites docs/api/webhook.md, which does not exist",
      "4: cites docs/api/webhooks.md#signature, but docs/api/webhooks.md has no such heading",
      "5: cites docs/decisions.md#no-such-decision, but docs/decisions.md has no such heading",
    ]);
  });

  it("when YAML, shell or proto comments cite the spec, then they are reported too", () => {
    expect(problemsOf("deploy/k8s/values.yaml", "port: 80 # spec section 8\n")).toHaveLength(1);
    expect(
      problemsOf("proto/x.proto", "// One failed field, with a code from spec section 7.2.\n"),
    ).toHaveLength(1);
    expect(problemsOf(".ci/run", "# install what the spec needs\n")).toHaveLength(1);
  });

  it("when a Markdown page links to a missing page or heading of the reference, then it is reported", () => {
    const page =
      "See [signatures](webhooks.md#signatures), [types](#event-types), [bad](webhooks.md#nope), [gone](limits.md).\n";
    expect(problemsOf("docs/api/webhooks.md", page)).toEqual([
      "1: cites docs/api/webhooks.md#nope, but docs/api/webhooks.md has no such heading",
      "1: cites docs/api/limits.md, which does not exist",
    ]);
  });
});
