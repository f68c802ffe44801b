// How the CLI talks: colours and progress only when a person is watching (a TTY, and NO_COLOR
// unset); `--json` prints one JSON document (or one per line for streams) and nothing else on stdout.
export interface Output {
  json: boolean;
  /** A result: JSON with --json, else the human text. */
  result(value: unknown, human: () => string): void;
  /** A line for people (stdout), skipped with --json. */
  info(text: string): void;
  /** Progress on stderr, only on a TTY and never with --json. */
  progress(text: string): void;
  /** One JSON line per streamed item with --json. */
  line(value: unknown): void;
  error(text: string): void;
  colour: {
    green(s: string): string;
    red(s: string): string;
    dim(s: string): string;
    bold(s: string): string;
  };
}

export interface Streams {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

export function createOutput(json: boolean, streams: Streams, env: NodeJS.ProcessEnv = process.env): Output {
  const coloured = streams.stdout.isTTY === true && !env.NO_COLOR && !json;
  const paint = (code: number) => (s: string) => (coloured ? `\u001b[${code}m${s}\u001b[0m` : s);
  return {
    json,
    result(value, human) {
      streams.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
    },
    info(text) {
      if (!json) streams.stdout.write(`${text}\n`);
    },
    progress(text) {
      if (!json && streams.stderr.isTTY === true) streams.stderr.write(`${text}\n`);
    },
    line(value) {
      streams.stdout.write(`${JSON.stringify(value)}\n`);
    },
    error(text) {
      streams.stderr.write(`${text}\n`);
    },
    colour: { green: paint(32), red: paint(31), dim: paint(2), bold: paint(1) },
  };
}

/** Fixed-width columns for lists. */
export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** A list page as a table, with the flag that shows the next page when there is one. */
export function pageText<T>(
  page: { data: T[]; has_more: boolean; next_cursor: string | null },
  header: string[],
  row: (item: T) => string[],
  empty: string,
): string {
  if (page.data.length === 0) return empty;
  const lines = table([header, ...page.data.map(row)]);
  return page.has_more ? `${lines}\n… more: --starting-after ${page.next_cursor}` : lines;
}

/** The query members the user gave (flags left out are not sent as empty parameters). */
export function givenOnly(query: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
}
