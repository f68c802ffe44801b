import ts from "typescript";

/** One comment of a source file, with the 1-based line it starts on. */
export interface SourceComment {
  line: number;
  text: string;
}

const TS_LIKE = /\.(?:[cm]?[jt]s)$/;
const SLASH_COMMENTS = /\.proto$/;
const HASH_COMMENTS = /(?:\.ya?ml|\.sh|\.py|\.tpl|\.txt|Dockerfile|\.dockerignore|\.ci\/run|\.gitignore)$/;

export function hasComments(path: string): boolean {
  return TS_LIKE.test(path) || SLASH_COMMENTS.test(path) || HASH_COMMENTS.test(path);
}

function lineOf(text: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Every comment of a TypeScript or JavaScript file, found by the compiler's parser (so `//`
 * inside strings, template literals and regular expressions is never mistaken for a comment).
 */
function scriptComments(path: string, text: string): SourceComment[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  const seen = new Map<number, SourceComment>();
  const collect = (ranges: ts.CommentRange[] | undefined): void => {
    for (const range of ranges ?? []) {
      if (!seen.has(range.pos))
        seen.set(range.pos, { line: lineOf(text, range.pos), text: text.slice(range.pos, range.end) });
    }
  };
  const visit = (node: ts.Node): void => {
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    for (const child of node.getChildren(file)) visit(child);
  };
  visit(file);
  return [...seen.values()].sort((a, b) => a.line - b.line);
}

/** Line comments of languages that start them with `marker` (`//` in .proto, `#` in YAML, shell…). */
function lineComments(text: string, marker: "//" | "#"): SourceComment[] {
  const found: SourceComment[] = [];
  const pattern = marker === "#" ? /(?:^|\s)#(.*)$/ : /\/\/(.*)$/;
  text.split("\n").forEach((content, index) => {
    const match = pattern.exec(content);
    if (match) found.push({ line: index + 1, text: match[1] ?? "" });
  });
  return found;
}

export function commentsOf(path: string, text: string): SourceComment[] {
  if (TS_LIKE.test(path)) return scriptComments(path, text);
  if (SLASH_COMMENTS.test(path)) return lineComments(text, "//");
  if (HASH_COMMENTS.test(path)) return lineComments(text, "#");
  return [];
}

/**
 * The anchors GitHub gives a Markdown file's headings: lower case, punctuation other than `-`
 * and `_` dropped, spaces turned into `-`; a repeated heading gets `-1`, `-2`… Headings inside
 * fenced code blocks are not headings.
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = (heading[1] ?? "")
      .replace(/`/g, "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = counts.get(base) ?? 0;
    counts.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}
