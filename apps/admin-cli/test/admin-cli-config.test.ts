import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_TOKEN,
  createTestEdge,
  type TestEdge,
} from "../../../services/edge/test/fakes/edge-test-harness.js";
import { parseAdminArgs, runAdminCli, UsageError } from "../src/admin-commands.js";

const URL_ARGS = ["--base-url", "http://localhost:8080/epg/rest", "--username", "sim-merchant"];

describe("parseAdminArgs: terminals and fees", () => {
  it.each([
    [
      ["terminals", "set", "mer_1", "test", ...URL_ARGS, "--password", "pw"],
      {
        method: "PUT",
        path: "/admin/v1/merchants/mer_1/terminals/test",
        body: {
          base_url: "http://localhost:8080/epg/rest",
          username: "sim-merchant",
          password: "pw",
          active: true,
        },
      },
    ],
    [
      [
        "terminals",
        "set",
        "mer_1",
        "live",
        "--base-url=https://acq.example/rest",
        "--username",
        "u",
        "--password",
        "pw",
        "--inactive",
      ],
      {
        method: "PUT",
        path: "/admin/v1/merchants/mer_1/terminals/live",
        body: { base_url: "https://acq.example/rest", username: "u", password: "pw", active: false },
      },
    ],
    [
      ["terminals", "show", "mer_1", "live"],
      { method: "GET", path: "/admin/v1/merchants/mer_1/terminals/live" },
    ],
    [
      ["fees", "set", "mer_1", "--percent", "2.5", "--fixed", "0.300"],
      { method: "PUT", path: "/admin/v1/merchants/mer_1/fees", body: { percent: "2.5", fixed: "0.300" } },
    ],
    [["fees", "show", "a/b"], { method: "GET", path: "/admin/v1/merchants/a%2Fb/fees" }],
  ])("%j maps to its admin call", (argv, expected) => {
    expect(parseAdminArgs(argv)).toEqual({ kind: "request", request: expected });
  });

  it("when --password is not given, then GATEWAY_TERMINAL_PASSWORD from the environment is used", () => {
    const parsed = parseAdminArgs(["terminals", "set", "mer_1", "test", ...URL_ARGS], {
      GATEWAY_TERMINAL_PASSWORD: "from-env",
    });
    expect(parsed).toMatchObject({ request: { body: { password: "from-env" } } });
  });

  it.each([
    [["terminals", "set", "mer_1", "prod", ...URL_ARGS, "--password", "pw"], /test or live/],
    [["terminals", "set", "mer_1", ...URL_ARGS, "--password", "pw"], /<merchant_id> <mode>/],
    [["terminals", "set", "mer_1", "test", ...URL_ARGS], /--password/],
    [["terminals", "set", "mer_1", "test", "--username", "u", "--password", "pw"], /--base-url/],
    [["terminals", "set", "mer_1", "test", "--base-url", "http://x", "--password", "pw"], /--username/],
    [
      ["terminals", "set", "mer_1", "test", ...URL_ARGS, "--password", "pw", "--percent", "1"],
      /does not take --percent/,
    ],
    [["terminals", "show", "mer_1", "staging"], /test or live/],
    [["fees", "set", "mer_1", "--percent", "1"], /--fixed/],
    [["fees", "set", "--percent", "1", "--fixed", "0.000"], /<merchant_id>/],
    [["fees", "show", "mer_1", "--inactive"], /does not take --inactive/],
  ])("%j is a usage error", (argv, message) => {
    expect(() => parseAdminArgs(argv)).toThrow(UsageError);
    expect(() => parseAdminArgs(argv)).toThrow(message);
  });

  it("when a usage error is about the password, then it does not quote it", () => {
    expect(() =>
      parseAdminArgs(["terminals", "set", "mer_1", "prod", ...URL_ARGS, "--password", "Secret-CLI-Password"]),
    ).toThrow(expect.objectContaining({ message: expect.not.stringContaining("Secret-CLI-Password") }));
  });
});

describe("runAdminCli: terminals and fees against a listening edge", () => {
  let t: TestEdge;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    t = createTestEdge();
    env = {
      GATEWAY_URL: await t.app.listen({ port: 0, host: "127.0.0.1" }),
      GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
    };
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

  it("sets and shows a test terminal and a fee plan, printing the answers without the password", async () => {
    const merchant = JSON.parse(
      (await run(["merchants", "create", "--name", "CLI Terminal Shop"])).stdout,
    ) as { id: string };
    const set = await run(["terminals", "set", merchant.id, "test", ...URL_ARGS], {
      ...env,
      GATEWAY_TERMINAL_PASSWORD: "CLI-Env-Password",
    });
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({
      merchant_id: merchant.id,
      mode: "test",
      base_url: "http://localhost:8080/epg/rest",
      active: true,
    });
    expect(set.stdout).not.toContain("CLI-Env-Password");
    expect(t.accounts.terminals.get(`${merchant.id}:test`)?.password).toBe("CLI-Env-Password");

    const shown = await run(["terminals", "show", merchant.id, "test"]);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ username: "sim-merchant" });

    expect(JSON.parse((await run(["fees", "show", merchant.id])).stdout)).toMatchObject({
      percent: "0",
      fixed: "0.000",
      updated_at: null,
    });
    const fees = await run(["fees", "set", merchant.id, "--percent", "1.75", "--fixed", "0.250"]);
    expect(fees.code).toBe(0);
    expect(JSON.parse(fees.stdout)).toMatchObject({
      merchant_id: merchant.id,
      percent: "1.75",
      fixed: "0.250",
    });
  });

  it("when the gateway refuses a live terminal for an unverified merchant, then the problem goes to stderr with exit code 1", async () => {
    const merchant = JSON.parse(
      (await run(["merchants", "create", "--name", "Unverified CLI Shop"])).stdout,
    ) as { id: string };
    const res = await run([
      "terminals",
      "set",
      merchant.id,
      "live",
      "--base-url",
      "https://acq.example/rest",
      "--username",
      "u",
      "--password",
      "pw",
    ]);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stderr)).toMatchObject({ status: 403 });
  });

  it("lists the new commands in --help", async () => {
    const help = await run(["--help"]);
    expect(help.stdout).toContain("terminals set <merchant_id> test|live --base-url <url> --username <name>");
    expect(help.stdout).toContain("fees set <merchant_id> --percent <percent> --fixed <TND>");
    expect(help.stdout).toContain("GATEWAY_TERMINAL_PASSWORD");
  });
});
