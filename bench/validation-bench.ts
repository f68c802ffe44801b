// What a hostile create body costs (issue 15 item 1): 256 KB bodies built to produce as many
// violations as possible, against a valid body of the same size (padded with JSON white space),
// sent side by side to one embedded gateway (`npm start`), one request at a time.
// Run: npx tsx bench/validation-bench.ts [--rounds N]
// Each line: median and worst milliseconds per request, and the median's ratio to the valid body.
import { parseArgs } from "node:util";
import { startEmbeddedProcess } from "@gateway/launcher";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "20" } } });
const ROUNDS = Number.parseInt(values.rounds, 10);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error("--rounds must be a positive whole number");

const SIZE = 256 * 1024 - 64; // under the default 262,144-byte body limit
const KEY = "sk_test_ValidationBench01AbcdefghijklmnopqrstuvwxyzA";
const head = (ref: string) => `{"merchant_reference":"${ref}","amount":"1.000"`;
/** prefix, then as many comma-separated units as fit in `size`, then suffix. */
const fill = (prefix: string, unit: (i: number) => string, suffix: string, size = SIZE): string => {
  let body = prefix;
  for (let i = 0; body.length + unit(i).length + 1 + suffix.length < size; i++)
    body += (i === 0 ? "" : ",") + unit(i);
  return body + suffix;
};

const bodies: Array<[string, (round: number) => string, number]> = [
  // The same reference every round: after the first, an idempotent repeat (a read, no write).
  ["valid, padded with white space", () => `${head("bench-valid")}}`.padEnd(SIZE, " "), 200],
  ["empty items (~87,000)", (r) => fill(`${head(`bench-items-${r}`)},"items":[`, () => "{}", "]}"), 422],
  [
    "100 items full of unknown members",
    (r) => {
      const item = fill(
        '{"name":"x","quantity":1,"unit_price":"1.000",',
        (i) => `"u${i}":0`,
        "}",
        Math.floor(SIZE / 100) - 2,
      );
      return `${head(`bench-unknown-items-${r}`)},"items":[${Array.from({ length: 100 }, () => item).join(",")}]}`;
    },
    422,
  ],
  [
    "unknown top-level members (~23,000)",
    (r) => fill(`${head(`bench-unknown-${r}`)},`, (i) => `"m${i}":0`, "}"),
    422,
  ],
  [
    "40 unknown members with 6 KB names",
    (r) =>
      `${head(`bench-names-${r}`)},"currency":"tnd",${Array.from({ length: 40 }, (_, i) => `"${String(i).padStart(6000, "n")}":0`).join(",")}}`,
    422,
  ],
];

const { url, process: proc } = await startEmbeddedProcess(KEY);

async function post(body: string, expected: number): Promise<number> {
  const began = performance.now();
  const res = await fetch(`${url}/api/v1/gateway/sessions/`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body,
  });
  const text = await res.text();
  const ms = performance.now() - began;
  if (res.status !== expected && !(expected === 200 && res.status === 201))
    throw new Error(`expected ${expected}, got ${res.status}: ${text.slice(0, 300)}`);
  return ms;
}

try {
  const samples = new Map<string, number[]>(bodies.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    // Interleaved, so the machine's load falls on every kind alike.
    for (const [name, build, expected] of bodies) samples.get(name)!.push(await post(build(round), expected));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const baseline = median(samples.get(bodies[0]![0])!);
  console.log(`${ROUNDS} rounds, bodies of ${SIZE} bytes, one embedded gateway\n`);
  console.log("| body | bytes | median ms | worst ms | ratio to valid |");
  console.log("|---|---|---|---|---|");
  for (const [name, build] of bodies) {
    const xs = samples.get(name)!;
    console.log(
      `| ${name} | ${Buffer.byteLength(build(0))} | ${median(xs).toFixed(1)} | ${Math.max(...xs).toFixed(1)} | ${(median(xs) / baseline).toFixed(2)} |`,
    );
  }
} finally {
  await proc.stop();
}
