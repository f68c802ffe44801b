import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Gateway } from "@gateway/sdk";
import { generateWebhookSecret, verifyStandardWebhook } from "@gateway/webhook-signature";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGatewayCli, watchGatewayCli } from "./support/gateway-cli.js";
import { type GatewayTarget, startEmbeddedTarget } from "./support/gateway-targets.js";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";

// The merchant CLI (`npm run gateway -- …`) as a separate process against a running gateway
// (embedded mode): login, sessions, deliveries, trigger of each event, and listen forwarding a
// real session.succeeded to a receiver that verifies it with the secret listen printed.
const KEY = "sk_test_CliE2eDemoKey01abcdefghijklmnopqrstuvwxyzABC";
const OTHER_VALID_LOOKING_KEY = "sk_test_CliE2eUnknown01abcdefghijklmnopqrstuvwxyzABC";

const ADMIN_TOKEN = "merchant-cli-e2e-admin-token-0123456789";

let target: GatewayTarget;
/** A second gateway whose sessions live 3 s, for `trigger session.expired`. */
let shortLived: GatewayTarget;
let home: string;
let gateway: Gateway;
const env = () => ({ GATEWAY_CONFIG: join(home, "gateway", "config.json"), GATEWAY_URL: target.url });
/** For the tests that do not depend on `login` having run first. */
const keyed = () => ({ ...env(), GATEWAY_API_KEY: KEY });

beforeAll(async () => {
  [target, shortLived] = await Promise.all([
    startEmbeddedTarget(KEY, { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN }),
    startEmbeddedTarget(KEY, { GATEWAY_SESSION_LIFETIME: "3s" }),
  ]);
  // Refund events are opt-in (issue 13): the demo merchant subscribes to them for `trigger refund.succeeded`.
  const subscribed = await fetch(
    `${target.url}/admin/v1/merchants/mer_demo/webhook-endpoints/test/subscriptions`,
    {
      method: "PUT",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({
        enabled_events: ["session.succeeded", "session.failed", "session.expired", "refund.*"],
      }),
    },
  );
  expect(subscribed.status).toBe(200);
  home = await mkdtemp(join(tmpdir(), "gateway-cli-"));
  gateway = new Gateway({ apiKey: KEY, baseUrl: target.url });
});

afterAll(async () => {
  await Promise.all([target?.stop(), shortLived?.stop()]);
  if (home) await rm(home, { recursive: true, force: true });
});

describe("gateway login", () => {
  it("checks a test key read from stdin and stores it in a file only its owner can read (0600)", async () => {
    const run = await runGatewayCli(["login", "--json"], env(), `${KEY}\n`);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ base_url: target.url, config: env().GATEWAY_CONFIG });
    expect(run.stdout).not.toContain(KEY);
    const file = env().GATEWAY_CONFIG;
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ api_key: KEY, base_url: target.url });
  });

  it("refuses a live key and a key the gateway does not know, and keeps the stored one", async () => {
    const live = await runGatewayCli(["login", "--api-key", KEY.replace("sk_test_", "sk_live_")], env());
    expect(live.code).toBe(2);
    expect(live.stderr).toContain("test key");
    const unknown = await runGatewayCli(["login", "--api-key", OTHER_VALID_LOOKING_KEY], env());
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/401/);
    expect(JSON.parse(await readFile(env().GATEWAY_CONFIG, "utf8")).api_key).toBe(KEY);
  });
});

describe("gateway sessions and deliveries", () => {
  it("lists and gets sessions with the stored key, as JSON for scripts and as plain text off a TTY", async () => {
    const session = await gateway.sessions.create({
      merchant_reference: `cli-list-${Date.now()}`,
      amount: "7.250",
    });
    const list = await runGatewayCli(
      ["sessions", "list", "--json", "--reference", session.merchant_reference],
      env(),
    );
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).data.map((s: { id: string }) => s.id)).toEqual([session.id]);

    const got = await runGatewayCli(["sessions", "get", session.id, "--json"], env());
    expect(JSON.parse(got.stdout)).toMatchObject({ id: session.id, amount: "7.250", status: "CREATED" });

    const human = await runGatewayCli(["sessions", "get", session.id], env());
    expect(human.stdout).toContain(session.id);
    expect(human.stdout).toMatch(/status\s+CREATED/);
    expect(human.stdout + human.stderr).not.toContain("\u001b[");

    const missing = await runGatewayCli(["sessions", "get", "ps_000000000000000000000000", "--json"], env());
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout).error).toMatchObject({ status: 404 });
  });

  it("answers a wrong command with its usage and exit code 2", async () => {
    const run = await runGatewayCli(["sessions", "delete"], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Usage: gateway");
  });
});

describe("gateway trigger", () => {
  for (const event of ["session.succeeded", "session.failed", "refund.succeeded"] as const) {
    it(`produces ${event} on a real test session paid through the simulator's card page`, async () => {
      const run = await runGatewayCli(["trigger", event, "--json"], keyed());
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout);
      expect(result.event).toBe(event);
      const deliveries = await gateway.deliveries.list({ session_id: result.session_id, event });
      expect(deliveries.data.map((d) => d.event_id)).toContain(result.event_id);
      const session = await gateway.sessions.retrieve(result.session_id);
      expect(session.status).toBe(event === "session.failed" ? "FAILED" : "SUCCEEDED");
    });
  }

  it("produces session.expired once the session's lifetime ends", async () => {
    const run = await runGatewayCli(
      ["trigger", "session.expired", "--json", "--base-url", shortLived.url],
      keyed(),
    );
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    const onShort = new Gateway({ apiKey: KEY, baseUrl: shortLived.url });
    expect((await onShort.sessions.retrieve(result.session_id)).status).toBe("EXPIRED");
    const deliveries = await onShort.deliveries.list({
      session_id: result.session_id,
      event: "session.expired",
    });
    expect(deliveries.data.map((d) => d.event_id)).toContain(result.event_id);
  });

  it("lists the deliveries of a triggered session with deliveries list, as JSON and as a table", async () => {
    const triggered = JSON.parse(
      (await runGatewayCli(["trigger", "session.succeeded", "--json"], keyed())).stdout,
    );
    const run = await runGatewayCli(
      ["deliveries", "list", "--session", triggered.session_id, "--json"],
      keyed(),
    );
    expect(run.code, run.stderr).toBe(0);
    const listed = JSON.parse(run.stdout).data;
    expect(listed.map((d: { event_id: string }) => d.event_id)).toContain(triggered.event_id);
    const filtered = await runGatewayCli(
      ["deliveries", "list", "--event", "session.failed", "--session", triggered.session_id, "--json"],
      keyed(),
    );
    expect(JSON.parse(filtered.stdout).data).toEqual([]);
    const table = await runGatewayCli(["deliveries", "list", "--session", triggered.session_id], keyed());
    expect(table.stdout).toMatch(/^ID\s+EVENT\s+STATUS\s+SESSION\s+CREATED/);
    expect(table.stdout).toContain(triggered.delivery_id);

    const resent = await runGatewayCli(["deliveries", "resend", triggered.delivery_id, "--json"], keyed());
    expect(resent.code, resent.stderr).toBe(0);
    const attempt = JSON.parse(resent.stdout);
    expect(attempt).toMatchObject({
      event: "session.succeeded",
      event_id: triggered.event_id,
      status: "PENDING",
    });
    expect(attempt.id).not.toBe(triggered.delivery_id);
    const after = await gateway.deliveries.list({ event_id: triggered.event_id });
    expect(after.data.map((d) => d.id)).toContain(attempt.id);
    const unknown = await runGatewayCli(["deliveries", "resend", "whd_unknown", "--json"], keyed());
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).error).toMatchObject({ status: 404 });
  });

  it("refuses a live key before it creates anything", async () => {
    const live = KEY.replace("sk_test_", "sk_live_");
    const run = await runGatewayCli(["trigger", "session.succeeded"], { ...env(), GATEWAY_API_KEY: live });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("test key");
  });

  it("refuses a live key before it creates anything", async () => {
    const live = KEY.replace("sk_test_", "sk_live_");
    const run = await runGatewayCli(["trigger", "session.succeeded"], { ...env(), GATEWAY_API_KEY: live });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("test key");
  });

  it("refuses an event it cannot make", async () => {
    const run = await runGatewayCli(["trigger", "session.paid"], keyed());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("session.succeeded|session.failed|session.expired|refund.succeeded");
  });
});

describe("gateway listen", () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => receiver?.close());

  it("forwards a real session.succeeded to the local URL, signed with the secret it printed", async () => {
    // The edge's own stream (GET /api/v1/gateway/events/stream/) of the embedded gateway.
    const listen = watchGatewayCli(["listen", "--forward-to", receiver.url, "--json"], keyed());
    try {
      const ready = JSON.parse(await listen.waitForLine((l) => l.includes('"ready"')));
      expect(ready.secret).toMatch(/^whsec_/);
      expect(ready.forward_to).toBe(receiver.url);
      receiver.setSecrets(ready.secret);

      // A real payment on the gateway: its session.succeeded reaches listen through the stream.
      const trigger = await runGatewayCli(["trigger", "session.succeeded", "--json"], keyed());
      expect(trigger.code, trigger.stderr).toBe(0);
      const { session_id, event_id } = JSON.parse(trigger.stdout);

      const [delivered] = await receiver.waitForRequests(1, (r) => r.json?.id === event_id);
      expect(delivered!.standard).toMatchObject({ ok: true });
      expect(delivered!.signature).toMatchObject({ ok: true });
      expect(delivered!.headers["webhook-id"]).toBe(event_id);
      const verified = gateway.webhooks.constructEvent(delivered!.rawBody, delivered!.headers, ready.secret);
      expect(verified).toMatchObject({
        id: event_id,
        event: "session.succeeded",
        data: { id: session_id, status: "SUCCEEDED" },
      });
      expect(verifyStandardWebhook(delivered!.rawBody, delivered!.headers, generateWebhookSecret()).ok).toBe(
        false,
      );
      const forwarded = JSON.parse(
        await listen.waitForLine((l) => l.includes('"forwarded"') && l.includes(event_id)),
      );
      expect(forwarded).toEqual({ type: "forwarded", event: "session.succeeded", id: event_id, status: 200 });
    } finally {
      expect(await listen.stop()).toBe(0);
    }
  });

  it("stops with the stream's problem when the key is refused", async () => {
    const run = await runGatewayCli(["listen", "--forward-to", receiver.url], {
      ...env(),
      GATEWAY_API_KEY: OTHER_VALID_LOOKING_KEY,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("401");
  });
});
