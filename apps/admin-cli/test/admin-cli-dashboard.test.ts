import { type EmbeddedGateway, embeddedConfigSpec, startEmbeddedGateway } from "@gateway/launcher";
import { createLogger, readConfig } from "@gateway/platform";
import { freePort } from "@gateway/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCli } from "../src/admin-commands.js";

// The operator invites a merchant's first dashboard owner through the CLI, against the whole
// gateway in one process (the real accounts service behind the edge's admin API).

const ADMIN_TOKEN = "admin-token-for-dashboard-cli-0123456789";
const PUBLIC_URL = "https://pay.shop.example";

let gateway: EmbeddedGateway;
const logLines: string[] = [];

beforeAll(async () => {
  const port = await freePort();
  const config = readConfig(embeddedConfigSpec, {
    HOST: "127.0.0.1",
    PORT: String(port),
    // Any free port: the default (9460) would collide with another test file's gateway.
    MANAGEMENT_PORT: "0",
    GATEWAY_PUBLIC_URL: PUBLIC_URL,
    GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
    GATEWAY_DEMO: "0",
    GATEWAY_RATE_LIMITS: "off",
  });
  const logger = createLogger({
    service: "gateway",
    level: "debug",
    destination: { write: (line: string) => void logLines.push(line) },
  });
  gateway = await startEmbeddedGateway(config, logger);
});

afterAll(async () => {
  await gateway?.close();
});

async function run(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const env = { GATEWAY_URL: gateway.url, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN };
  const code = await runAdminCli(argv, env, {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    fetch,
  });
  return { code, stdout, stderr };
}

describe("dashboard invitations from the operator CLI", () => {
  it("when the operator invites an owner, then a one-time link on the public URL is printed and logged nowhere", async () => {
    const merchant = JSON.parse((await run(["merchants", "create", "--name", "Dashboard Shop"])).stdout);
    const invited = await run(["dashboard", "invite", merchant.id, "Owner@Shop.Example", "--role", "owner"]);
    expect(invited.code).toBe(0);
    const answer = JSON.parse(invited.stdout);
    expect(answer).toMatchObject({ merchant_id: merchant.id, email: "owner@shop.example", role: "owner" });
    expect(answer.url).toMatch(/^https:\/\/pay\.shop\.example\/dashboard\/invitations\/inv_[0-9A-Za-z]{43}$/);
    const secret = answer.url.split("/").at(-1);
    expect(logLines.join("\n")).not.toContain(secret);
    // Not a user until the link is used.
    expect(JSON.parse((await run(["dashboard", "users", merchant.id])).stdout)).toEqual({
      data: [],
      has_more: false,
    });
  });

  it("when the role or email is bad, or the merchant unknown, then the problem document says so and nothing is issued", async () => {
    const merchant = JSON.parse((await run(["merchants", "create", "--name", "Other Shop"])).stdout);
    const badRole = await run(["dashboard", "invite", merchant.id, "a@shop.example", "--role", "root"]);
    expect(badRole.code).toBe(1);
    expect(JSON.parse(badRole.stderr)).toMatchObject({
      status: 422,
      errors: [expect.objectContaining({ field: "role" })],
    });
    const badEmail = await run(["dashboard", "invite", merchant.id, "not-an-email", "--role", "viewer"]);
    expect(JSON.parse(badEmail.stderr)).toMatchObject({
      status: 422,
      errors: [expect.objectContaining({ field: "email" })],
    });
    const unknown = await run(["dashboard", "invite", "mer_unknown", "a@shop.example", "--role", "viewer"]);
    expect(JSON.parse(unknown.stderr)).toMatchObject({ status: 404 });
    expect((await run(["dashboard", "invite", merchant.id, "a@shop.example"])).code).toBe(2);
  });
});
