import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_TOKEN,
  createTestEdge,
  type TestEdge,
} from "../../../services/edge/test/fakes/edge-test-harness.js";
import { parseAdminArgs, runAdminCli, UsageError } from "../src/admin-commands.js";

describe("parseAdminArgs", () => {
  it.each([
    [
      ["merchants", "create", "--name", "Dar Shop"],
      { method: "POST", path: "/admin/v1/merchants", body: { name: "Dar Shop" } },
    ],
    [["merchants", "verify", "mer_1"], { method: "POST", path: "/admin/v1/merchants/mer_1/verification" }],
    [
      ["keys", "create", "mer_1", "--mode", "live"],
      { method: "POST", path: "/admin/v1/merchants/mer_1/api-keys", body: { mode: "live" } },
    ],
    [
      ["keys", "create", "mer_1", "--mode=test", "--expires-at", "2027-01-01T00:00:00Z"],
      {
        method: "POST",
        path: "/admin/v1/merchants/mer_1/api-keys",
        body: { mode: "test", expires_at: "2027-01-01T00:00:00Z" },
      },
    ],
    [["keys", "revoke", "key_1"], { method: "DELETE", path: "/admin/v1/api-keys/key_1" }],
    [
      ["rates", "set", "mer_1", "EUR", "3.35"],
      { method: "PUT", path: "/admin/v1/merchants/mer_1/exchange-rates/EUR", body: { rate: "3.35" } },
    ],
    [["verification", "list"], { method: "GET", path: "/admin/v1/business-verifications" }],
    [
      ["verification", "show", "mer_1"],
      { method: "GET", path: "/admin/v1/merchants/mer_1/business-verification" },
    ],
    [
      ["verification", "approve", "mer_1"],
      { method: "POST", path: "/admin/v1/merchants/mer_1/business-verification/approve" },
    ],
    [
      ["verification", "reject", "mer_1", "--reason", "Name and number differ"],
      {
        method: "POST",
        path: "/admin/v1/merchants/mer_1/business-verification/reject",
        body: { reason: "Name and number differ" },
      },
    ],
    [
      ["merchants", "verify", "a/b?c"],
      { method: "POST", path: "/admin/v1/merchants/a%2Fb%3Fc/verification" },
    ],
  ])("%j maps to its admin call", (argv, expected) => {
    expect(parseAdminArgs(argv)).toEqual({ kind: "request", request: expected });
  });

  it("--help, -h and no arguments ask for help", () => {
    expect(parseAdminArgs(["--help"])).toEqual({ kind: "help" });
    expect(parseAdminArgs(["keys", "create", "-h"])).toEqual({ kind: "help" });
    expect(parseAdminArgs([])).toEqual({ kind: "help" });
  });

  it.each([
    [["merchants", "create"], /--name/],
    [["merchants", "create", "--name", "X", "--mode", "test"], /does not take --mode/],
    [["merchants", "verify"], /<merchant_id>/],
    [["verification", "reject", "mer_1"], /--reason/],
    [["keys", "create", "mer_1"], /--mode test or --mode live/],
    [["keys", "create", "mer_1", "--mode", "prod"], /--mode test or --mode live/],
    [["keys", "revoke", "a", "b"], /<key_id>/],
    [["rates", "set", "mer_1", "EUR"], /<merchant_id> <CURRENCY> <rate>/],
    [["refunds", "list"], /unknown command/],
    [["merchants", "create", "--colour", "red"], /colour/],
  ])("%j is a usage error", (argv, message) => {
    expect(() => parseAdminArgs(argv)).toThrow(UsageError);
    expect(() => parseAdminArgs(argv)).toThrow(message);
  });
});

describe("runAdminCli against a listening edge", () => {
  let t: TestEdge;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    t = createTestEdge();
    const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
    env = { GATEWAY_URL: `${address}/`, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN };
  });
  afterAll(async () => {
    await t.app.close();
  });

  const run = async (argv: string[], environment = env) => {
    let stdout = "";
    let stderr = "";
    const code = await runAdminCli(argv, environment, {
      stdout: (s) => void (stdout += s),
      stderr: (s) => void (stderr += s),
      fetch,
    });
    return { code, stdout, stderr };
  };

  it("creates a merchant and a test key, printing the JSON answers", async () => {
    const merchant = await run(["merchants", "create", "--name", "CLI Shop"]);
    expect(merchant.code).toBe(0);
    const created = JSON.parse(merchant.stdout);
    expect(created).toMatchObject({ name: "CLI Shop", verified: false });

    const key = await run(["keys", "create", created.id, "--mode", "test"]);
    expect(key.code).toBe(0);
    expect(JSON.parse(key.stdout).key).toMatch(/^sk_test_/);
  });

  it("when the call fails, then the problem document goes to stderr and the exit code is 1", async () => {
    const res = await run(["merchants", "verify", "mer_missing"]);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe("");
    expect(JSON.parse(res.stderr)).toMatchObject({
      status: 404,
      type: "https://gateway.test/errors/not-found",
    });
  });

  it("when the token is wrong, then 401 is reported with exit code 1", async () => {
    const res = await run(["merchants", "create", "--name", "X"], { ...env, GATEWAY_ADMIN_TOKEN: "nope" });
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stderr).status).toBe(401);
  });

  it("when the token is not set, then exit code 2 without calling the gateway", async () => {
    const res = await run(["merchants", "create", "--name", "X"], { GATEWAY_URL: env.GATEWAY_URL });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("GATEWAY_ADMIN_TOKEN");
  });

  it("when the gateway is unreachable, then exit code 1 with the reason", async () => {
    const res = await run(["keys", "revoke", "key_1"], { ...env, GATEWAY_URL: "http://127.0.0.1:1" });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("cannot reach the gateway");
  });

  it("prints usage for --help with exit code 0, and usage errors exit 2", async () => {
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("keys create <merchant_id> --mode test|live");
    const bad = await run(["keys", "create"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--help");
  });
});
