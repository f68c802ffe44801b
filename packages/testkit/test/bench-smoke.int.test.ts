import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../src/local-servers/binaries.js";

const run = promisify(execFile);

// Each benchmark script in bench/, run for seconds with tiny sizes, so that they keep working as
// the code they measure changes. Numbers are not checked (a shared CI machine is too noisy);
// only that the script finishes and prints its table.
const SCRIPTS: ReadonlyArray<{ script: string; args: string[]; tableHeader: RegExp; timeoutMs?: number }> = [
  { script: "sweeper-bench.ts", args: ["--sessions", "5"], tableHeader: /\| store \| sweepers \|/ },
  {
    script: "ferretdb-backend-bench.ts",
    args: ["--documents", "20", "--ops", "2"],
    tableHeader: /\| operation \| PostgreSQL \| SQLite \|/,
  },
  {
    script: "ferretdb-backend-bench.ts",
    args: ["--documents", "20", "--ops", "2", "--compare", "index-mirror"],
    tableHeader: /\| operation \| PostgreSQL, GIN twins \| PostgreSQL as shipped \|/,
  },
  { script: "rate-limiter-bench.ts", args: ["--requests", "30", "--seconds", "5"], tableHeader: /\|/ },
  {
    script: "webhook-delivery-bench.ts",
    args: ["--events", "20", "--seconds", "1", "--stored", "0,50", "--rounds", "2"],
    tableHeader:
      /\| consumer \| stored deliveries \| deliveries\/s, median of 2 \| each round \| ÷ floor \|[\s\S]*\| webhooks runtime \| 50 \| \d+ \| \d+, \d+ \|/,
  },
  {
    script: "bulk-resend-bench.ts",
    args: ["--events", "30"],
    tableHeader: /\| events \| calls \| events resent \|/,
  },
  {
    script: "service-call-bench.ts",
    args: ["--rounds", "1", "--calls", "20", "--rate-seconds", "0.5"],
    tableHeader:
      /\| variant \| p50 ms, one at a time \|.*\| server CPU µs per call \| client old-generation growth KB per call at \d+\/s \|[\s\S]*\| gateway service call, Connect's transport \|/,
  },
  {
    script: "http-scale-bench.ts",
    // The embedded gateway and three distributed stacks (two at once for the growth), all fresh.
    // The embedded create's row must carry its half-load warm-up's p99, so the warm-up ran, and
    // the cores busy at half load, and its 50% loop's slices their p99s; the line under the table
    // its ratio measured with a polling generator.
    timeoutMs: 240_000,
    args: [
      "--seconds",
      "1",
      "--warmup",
      "0.2",
      "--half-load-warmup",
      "0.2",
      "--half-load-seconds",
      "1",
      "--growth",
      "0,20",
      "--growth-slices",
      "2",
      "--idle-seconds",
      "1",
    ],
    tableHeader:
      /\| mode \| request \| gateway req\/s \| floor req\/s \| gateway ÷ floor \|.*\| worst 10-s slice's p99 ms at 50%, gateway \/ floor \| load generator's longest start delay ms at 50%, gateway \/ floor \| slowest 1% at 50%: stretches, longest ms, gateway \/ floor \| p99 ms in the warm-up at 50% \(not counted\), gateway \/ floor \| cores busy at 50%, gateway \/ floor \|[\s\S]*\| embedded \| create \|[^\n]*\| \d+\.\d+ \/ \d+\.\d+ \| \d+\.\d\d \/ \d+\.\d\d \| \d+ \/ \d+ \|\n[\s\S]*- embedded create: gateway \d+\.\d+; floor \d+\.\d+\n[\s\S]*Embedded create at saturation with a generator that polls for answers, for comparison: \d+ ÷ \d+ = \d+\.\d+\.\n[\s\S]*\| sessions pre-stored in the grown stack \| documents in sessions, reference \/ grown \|.*\| create\/s, median of 2, reference \/ grown \| grown ÷ reference \| CPU µs per create, database, reference \/ grown \| CPU µs per create, gateway, reference \/ grown \|[\s\S]*\| 20 \| \d+ \/ \d+ \|/,
  },
];

describe("benchmark scripts (smoke)", () => {
  for (const { script, args, tableHeader, timeoutMs = 150_000 } of SCRIPTS) {
    it(
      `when bench/${script} ${args.join(" ")} runs, then it finishes and prints its table`,
      async () => {
        const root = repoRoot;
        const { stdout } = await run(
          join(root, "node_modules", ".bin", "tsx"),
          [join(root, "bench", script), ...args],
          {
            cwd: root,
            timeout: timeoutMs,
            maxBuffer: 8 * 1024 * 1024,
          },
        );
        expect(stdout).toMatch(tableHeader);
      },
      timeoutMs + 30_000,
    );
  }
});
