import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { typecheckConsumerFile } from "@gateway/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// What a merchant gets from `npm run package`: the SDK's tarball (and the webhook verifier's,
// published beside it) installed with npm into an empty folder outside the repository and used
// from plain Node, from strict TypeScript, and as the `gateway` command. openapi-fetch comes from
// npm's cache (`--prefer-offline`): npm ci has put it there.

const run = promisify(execFile);
const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = resolve(packageDir, "../..");

let work: string;
let consumer: string;
let tarball: string;

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd,
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
  return stdout;
}

async function packed(buildScript: string, name: string): Promise<string> {
  const built = join(work, name);
  await run(process.execPath, [buildScript, built]);
  await npm(["pack", built, "--pack-destination", join(work, `${name}-tgz`)], work);
  const [file] = await readdir(join(work, `${name}-tgz`));
  return join(work, `${name}-tgz`, file!);
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "sdk-pack-"));
  consumer = join(work, "shop");
  await mkdir(join(work, "sdk-tgz"));
  await mkdir(join(work, "verifier-tgz"));
  const verifier = await packed(join(repoRoot, "packages/webhook-signature/scripts/build.mjs"), "verifier");
  tarball = await packed(join(packageDir, "scripts/build.mjs"), "sdk");
  await mkdir(consumer);
  await writeFile(
    join(consumer, "package.json"),
    JSON.stringify({ name: "shop", private: true, version: "1.0.0" }),
  );
  await npm(["install", "--prefer-offline", verifier, tarball], consumer);
}, 240_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe("the packed @gateway/sdk", () => {
  it("ships JavaScript, declarations, the generated types, the CLI and the README; no TypeScript sources or tests", async () => {
    const { stdout } = await run("tar", ["-tzf", tarball]);
    const files = stdout.trim().split("\n");
    for (const f of [
      "index.js",
      "index.d.ts",
      "client.js",
      "generated/openapi.d.ts",
      "cli/bin.js",
      "README.md",
    ])
      expect(files).toContain(`package/${f}`);
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
    expect(files.some((f) => f.includes("test"))).toBe(false);
    const manifest = JSON.parse(
      await readFile(join(consumer, "node_modules/@gateway/sdk/package.json"), "utf8"),
    );
    expect(manifest.bin).toEqual({ gateway: "./cli/bin.js" });
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      "@gateway/webhook-signature",
      "openapi-fetch",
    ]);
  });

  it("imports from a plain Node ES module: a client, its errors and the webhook verifier", async () => {
    await writeFile(
      join(consumer, "use.mjs"),
      `import { Gateway, GatewayProblemError, webhooks, WebhookVerificationError } from "@gateway/sdk";
import { Webhook, generateWebhookSecret } from "@gateway/webhook-signature";
const gw = new Gateway({ apiKey: "sk_test_x", baseUrl: "http://127.0.0.1:9", maxRetries: 0 });
const secret = generateWebhookSecret();
const body = JSON.stringify({ id: "evt_1", event: "session.succeeded", data: { id: "ps_1" } });
const t = Math.floor(Date.now() / 1000);
const headers = { "webhook-id": "evt_1", "webhook-timestamp": String(t), "webhook-signature": new Webhook(secret).sign("evt_1", t, body) };
let refused = "";
try { webhooks.constructEvent(body, headers, generateWebhookSecret()); }
catch (e) { refused = e instanceof WebhookVerificationError ? e.reason : String(e); }
console.log(JSON.stringify({ sessions: typeof gw.sessions.listAll, problem: typeof GatewayProblemError, event: webhooks.constructEvent(body, headers, secret).data, refused }));
`,
    );
    const { stdout } = await run(process.execPath, ["use.mjs"], { cwd: consumer });
    expect(JSON.parse(stdout)).toEqual({
      sessions: "function",
      problem: "function",
      event: { id: "ps_1" },
      refused: "no_matching_signature",
    });
  });

  it("installs the gateway command", async () => {
    const { stdout } = await run(join(consumer, "node_modules/.bin/gateway"), ["--help"], { cwd: consumer });
    expect(stdout).toContain("Usage: gateway <command>");
  });

  it("type-checks strict TypeScript against its declarations, and wrong use is a type error", async () => {
    await writeFile(
      join(consumer, "good.mts"),
      `import { Gateway, GatewayProblemError, type Session } from "@gateway/sdk";
const gw = new Gateway({ apiKey: "sk_test_x", baseUrl: "http://127.0.0.1:8080" });
export async function total(): Promise<string[]> {
  const out: string[] = [];
  for await (const s of gw.sessions.listAll({ status: "SUCCEEDED" })) out.push((s satisfies Session).amount);
  try { await gw.sessions.refund("ps_1", { refund_type: "PARTIAL", amount: "1.000" }); }
  catch (e) { if (e instanceof GatewayProblemError) out.push(...e.errors.map((v) => v.field)); }
  return out;
}
`,
    );
    await writeFile(
      join(consumer, "bad.mts"),
      `import { Gateway } from "@gateway/sdk";\nawait new Gateway({ apiKey: "k", baseUrl: "u" }).sessions.create({ amount: 12 });\n`,
    );
    expect(await typecheckConsumerFile(consumer, "good.mts")).toBe("");
    const bad = await typecheckConsumerFile(consumer, "bad.mts");
    expect(bad).toMatch(/TS2322|TS2345|TS2741/);
  }, 120_000);
});
