import { posix } from "node:path";
import { commentsOf, hasComments, type SourceComment } from "./source-comments.js";

/**
 * The REST contract is described in docs/api/ (and the reasons in docs/decisions.md). Sources
 * cite those files; a reference to the product documents kept outside the repository is useless
 * to anyone who only has the repository.
 */
const OUTSIDE_DOCUMENTS: Array<{ pattern: RegExp; what: string }> = [
  { pattern: /API-DECISIONS/i, what: "the product decisions kept outside the repository" },
  { pattern: /\b(?:DESIGN|STYLE)\.md\b/, what: "a design brief kept outside the repository" },
  { pattern: /\.\.\/shared\b|\/work\/shared|payment-gateway-spec/i, what: "a file outside the repository" },
  { pattern: /\bspec(?:'s)?\s+(?:section\s+|§\s*)?\d/i, what: "a numbered section of the product spec" },
  { pattern: /\bthe spec\b/i, what: "the product spec" },
];
// A bare section number points into the product spec, unless an RFC or an Internet-Draft is cited.
const SECTION_NUMBER = /\bsections?\s+\d/i;
const STANDARD_DOCUMENT = /\bRFC\s*\d|\bdraft-/i;

const DOC_LINK = /\bdocs\/(api\/[A-Za-z0-9._-]+\.md|decisions\.md|architecture\.md)(?:#([\p{L}\p{N}_-]+))?/gu;
const DOC_FOLDER_FILE = /\bdocs\/api\/([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)?/g;
const MARKDOWN_LINK = /\]\(([^)\s]+)\)/g;

/** The Markdown documents a citation may point at: repository path → heading anchors. */
export type DocIndex = ReadonlyMap<string, ReadonlySet<string>>;

export interface CitationProblem {
  path: string;
  line: number;
  problem: string;
}

function isMarkdown(path: string): boolean {
  return path.endsWith(".md");
}

/** What is checked in a file, line by line: its comments, or every line of a Markdown document. */
function citableLines(path: string, text: string): SourceComment[] {
  if (isMarkdown(path)) return text.split("\n").map((line, index) => ({ line: index + 1, text: line }));
  if (!hasComments(path)) return [];
  return commentsOf(path, text).flatMap((comment) =>
    comment.text.split("\n").map((line, index) => ({ line: comment.line + index, text: line })),
  );
}

function checkTarget(docs: DocIndex, target: string, anchor: string | undefined): string | undefined {
  const anchors = docs.get(target);
  if (!anchors) return `cites ${target}, which does not exist`;
  if (anchor !== undefined && !anchors.has(anchor))
    return `cites ${target}#${anchor}, but ${target} has no such heading`;
  return undefined;
}

/** Relative links of a Markdown document (`[x](other.md#anchor)`, `[x](#anchor)`) to documents in the index. */
function markdownLinkProblems(path: string, line: string, docs: DocIndex): string[] {
  const problems: string[] = [];
  for (const match of line.matchAll(MARKDOWN_LINK)) {
    const href = match[1] ?? "";
    if (/^[a-z]+:/i.test(href)) continue;
    const [file = "", anchor] = href.split("#");
    if (file !== "" && !file.endsWith(".md")) continue;
    const target = file === "" ? path : posix.normalize(posix.join(posix.dirname(path), file));
    if (!docs.has(target) && !target.startsWith("docs/")) continue;
    const problem = checkTarget(docs, target, anchor);
    if (problem) problems.push(problem);
  }
  return problems;
}

/**
 * Every citation problem of one file (a repository-relative path and its text): references to
 * documents outside the repository, and references to docs/ files or headings that do not exist.
 */
export function citationProblems(path: string, text: string, docs: DocIndex): CitationProblem[] {
  const problems: CitationProblem[] = [];
  for (const comment of citableLines(path, text)) {
    const report = (problem: string): void => {
      problems.push({ path, line: comment.line, problem });
    };
    // One report per line, naming the first outside document it cites.
    const outside =
      OUTSIDE_DOCUMENTS.find(({ pattern }) => pattern.test(comment.text))?.what ??
      (SECTION_NUMBER.test(comment.text) && !STANDARD_DOCUMENT.test(comment.text)
        ? "a numbered section of the product spec"
        : undefined);
    if (outside) report(`cites ${outside}: cite docs/api/ or docs/decisions.md instead`);
    for (const match of comment.text.matchAll(DOC_LINK)) {
      const problem = checkTarget(docs, `docs/${match[1]}`, match[2]);
      if (problem) report(problem);
    }
    for (const match of comment.text.matchAll(DOC_FOLDER_FILE)) {
      const file = match[1] ?? "";
      // The OpenAPI document is the generated contract beside the pages, and worth citing too.
      if (file !== "" && !file.endsWith(".md") && file !== "openapi.json") {
        report(`cites docs/api/${file}, which is not a page of the API reference`);
      }
    }
    if (isMarkdown(path))
      for (const problem of markdownLinkProblems(path, comment.text, docs)) report(problem);
  }
  return problems;
}
