import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { typecheckConsumerFile } from "@gateway/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// What a merchant gets from `npm run package`: the tarball is installed with npm into an empty
// folder outside the repository (offline: the package has no dependencies, so no registry is
// involved) and used from plain Node (ESM import and require) and from a strict TypeScript file.

const run = promisify(execFile);
const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");

let work: string;
let consumer: string;
let tarball: string;

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run(
    "npm",
    [...args, "--cache", join(work, "npm-cache"), "--no-audit", "--no-fund", "--loglevel=error"],
    {
      cwd,
      env: { ...process.env, npm_config_update_notifier: "false" },
    },
  );
  return stdout;
}

async function node(file: string): Promise<unknown> {
  const { stdout } = await run(process.execPath, [file], { cwd: consumer });
  return JSON.parse(stdout) as unknown;
}

// Signs with the installed package, then verifies with it: both APIs, right and wrong secret.
const USE = (load: string) => `${load}
const secret = pkg.generateWebhookSecret();
const body = JSON.stringify({ id: "evt_1", event: "session.succeeded", data: { amount: "1.00" } });
const t = Math.floor(Date.now() / 1000);
const headers = {
  "webhook-id": "evt_1",
  "webhook-timestamp": String(t),
  "webhook-signature": new pkg.Webhook(secret).sign("evt_1", t, body),
  "x-service-signature": pkg.buildSignatureHeader({ timestamp: t, body, secrets: [secret] }),
};
let refused = "";
try { new pkg.Webhook(pkg.generateWebhookSecret()).verify(body, headers); } catch (e) {
  refused = e instanceof pkg.WebhookVerificationError ? e.reason : String(e);
}
console.log(JSON.stringify({
  event: new pkg.Webhook(secret).verify(body, headers),
  legacy: pkg.verifyWebhook(body, headers, secret).ok,
  refused,
}));
`;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "webhook-signature-pack-"));
  consumer = join(work, "shop");
  const built = join(work, "package");
  await run(process.execPath, [join(packageDir, "scripts/build.mjs"), built]);
  await npm(["pack", built, "--pack-destination", work], work);
  const tgz = (await readdir(work)).filter((f) => f.endsWith(".tgz"));
  expect(tgz).toHaveLength(1);
  tarball = join(work, tgz[0]!);
  await run("mkdir", [consumer]);
  await writeFile(
    join(consumer, "package.json"),
    JSON.stringify({ name: "shop", private: true, version: "1.0.0" }),
  );
  await npm(["install", "--offline", tarball], consumer);
}, 180_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

const expected = {
  event: { id: "evt_1", event: "session.succeeded", data: { amount: "1.00" } },
  legacy: true,
  refused: "no_matching_signature",
};

describe("the packed @gateway/webhook-signature", () => {
  it("when listed, then it ships JavaScript, declarations, the README and a manifest pointing at them; no TypeScript sources or tests", async () => {
    const { stdout } = await run("tar", ["-tzf", tarball]);
    const files = stdout.trim().split("\n").sort();
    expect(files).toContain("package/index.js");
    expect(files).toContain("package/index.d.ts");
    expect(files).toContain("package/webhook.js");
    expect(files).toContain("package/README.md");
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
    expect(files.some((f) => f.includes("test"))).toBe(false);
    const manifest = JSON.parse(
      await readFile(join(consumer, "node_modules/@gateway/webhook-signature/package.json"), "utf8"),
    ) as Record<string, unknown>;
    expect(manifest.exports).toEqual({
      ".": { types: "./index.d.ts", default: "./index.js" },
      "./package.json": "./package.json",
    });
    expect(manifest.dependencies).toBeUndefined();
  });

  it("when imported from a plain Node ES module, then it signs and verifies", async () => {
    await writeFile(join(consumer, "use.mjs"), USE(`import * as pkg from "@gateway/webhook-signature";`));
    expect(await node("use.mjs")).toEqual(expected);
  });

  it("when required from CommonJS (require of an ES module, Node 20.19+), then it signs and verifies", async () => {
    await writeFile(join(consumer, "use.cjs"), USE(`const pkg = require("@gateway/webhook-signature");`));
    expect(await node("use.cjs")).toEqual(expected);
  });

  it("when used from strict TypeScript, then the declarations type-check and wrong use is a type error", async () => {
    const good = `import { Webhook, WebhookVerificationError, type GatewayWebhookEvent, type WebhookVerificationFailure } from "@gateway/webhook-signature";
const wh = new Webhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", { toleranceSec: 60 });
export function handle(raw: string, headers: Headers): GatewayWebhookEvent | WebhookVerificationFailure {
  try {
    return wh.verify<GatewayWebhookEvent>(raw, headers);
  } catch (e) {
    if (e instanceof WebhookVerificationError) return e.reason;
    throw e;
  }
}
`;
    await writeFile(join(consumer, "good.mts"), good);
    await writeFile(
      join(consumer, "bad.mts"),
      `import { Webhook } from "@gateway/webhook-signature";\nnew Webhook(42);\n`,
    );
    expect(await typecheckConsumerFile(consumer, "good.mts")).toBe("");
    const bad = await typecheckConsumerFile(consumer, "bad.mts");
    expect(bad).toMatch(/TS2345/);
  }, 120_000);
});
