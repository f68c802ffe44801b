import { type DistributedGateway, type GatewayProcessName, startDistributedGateway } from "@gateway/launcher";
import { waitFor } from "@gateway/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { merchantApi, request } from "./support/http.js";
import { payWithCard } from "./support/pay-with-card.js";
import { expectProblem } from "./support/problem.js";
import { type LocalPrometheus, startPrometheus } from "./support/prometheus.js";
import { answer, startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";

// Issue 15 item 6: Prometheus metrics live on each process's management listener
// (MANAGEMENT_PORT), never on the edge's public port; a real Prometheus scraping those ports
// sees the edge's RED metrics and the payments counter of a paid session; and (issue 16) during
// a refund and a failing webhook, the refund, webhook-failure and outbox series.
const ADMIN_TOKEN = "adm_e2e_metrics_token_4b8e21";
const prefix = `e2e_metrics_${Date.now().toString(36)}`;

describe("metrics, distributed mode", () => {
  let gw: DistributedGateway;
  let prometheus: LocalPrometheus | undefined;
  let receiver: WebhookReceiver | undefined;

  beforeAll(async () => {
    gw = await startDistributedGateway({
      mongodbUrl: process.env.MONGODB_URL,
      natsUrl: process.env.NATS_URL,
      databasePrefix: prefix,
      env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
    });
  });

  afterAll(async () => {
    await prometheus?.stop();
    await receiver?.close();
    await gw?.stop();
  });

  /** Waits until the query's summed value satisfies `want` (scrapes lag by a second or two). */
  async function eventually(promql: string, want: (value: number) => boolean): Promise<number> {
    let last = Number.NaN;
    await waitFor(
      async () => {
        const result = await prometheus!.query(promql);
        last = result.reduce((sum, r) => sum + r.value, 0);
        return result.length > 0 && want(last) ? true : undefined;
      },
      { timeoutMs: 60_000, message: `${promql} (last value ${last})` },
    );
    return last;
  }

  it("when /metrics is asked on the edge's public port, then it is a 404 problem document", async () => {
    expectProblem(await request(`${gw.edgeUrl}/metrics`), 404, "not-found", `${gw.edgeUrl}/errors`);
  });

  it.each(["edge", "accounts", "sessions", "refunds", "webhooks"] satisfies GatewayProcessName[])(
    "when %s's management port is scraped, then it answers Prometheus text",
    async (name) => {
      const res = await request(`${gw.managementUrls[name]}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/plain");
      expect(res.text).toContain("# TYPE process_cpu_user_seconds_total counter");
    },
  );

  it("when Prometheus scrapes the management ports during a paid session, then PromQL sees the request and the payment", async () => {
    prometheus = await startPrometheus(gw.managementUrls);
    const prom = prometheus;
    // Every process is a healthy target before anything is counted.
    await waitFor(async () => (await prom.query("up == 1")).length === 5 || undefined, {
      timeoutMs: 60_000,
      message: "five targets up",
    });

    const api = merchantApi(gw.edgeUrl, gw.demoTestKey!);
    const created = await api.createSession({ merchant_reference: "metrics-1", amount: "12.500" });
    expect(created.status, created.text).toBe(201);
    await payWithCard(created.body.checkout_url, { number: "4242424242424242" });
    expect((await api.getSession(created.body.id)).body.status).toBe("SUCCEEDED");

    // One create through the edge, labelled by its route template; the stack is fresh, so exactly one.
    const creates =
      'sum(gateway_http_requests_total{job="edge",route="/api/v1/gateway/sessions/",method="POST",status_class="2xx"})';
    await waitFor(async () => (await prom.query(creates))[0]?.value === 1 || undefined, {
      timeoutMs: 60_000,
      message: `${creates} == 1`,
    });
    // One settled payment, counted by sessions, with no failure code.
    const paid =
      'sum(gateway_payments_settled_total{job="sessions",outcome="succeeded",failure_code="none"})';
    await waitFor(async () => (await prom.query(paid))[0]?.value === 1 || undefined, {
      timeoutMs: 60_000,
      message: `${paid} == 1`,
    });
    // The session id never became a label value anywhere.
    expect(await prom.query(`count({__name__=~"gateway_.+", route=~".*${created.body.id}.*"})`)).toEqual([]);
    // The acquirer was called and answered (register and status at least).
    const acquirerOk = 'sum(gateway_acquirer_requests_total{job="sessions",result="ok"})';
    expect((await prom.query(acquirerOk))[0]?.value).toBeGreaterThanOrEqual(2);
  });

  it("when a paid session is refunded and its webhook endpoint fails, then PromQL sees the refund, the failures and the drained outboxes", async () => {
    // Runs after the paid-session test, on the same Prometheus.
    expect(prometheus).toBeDefined();
    receiver = await startWebhookReceiver();
    // The merchant's endpoint is down: every delivery fails and is retried later.
    receiver.answerWith(() => answer.status(500));
    const endpoint = await request(`${gw.edgeUrl}/admin/v1/merchants/mer_demo/webhook-endpoints/test`, {
      method: "PUT",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: { url: receiver.url },
    });
    expect(endpoint.status, endpoint.text).toBeLessThan(300);

    const api = merchantApi(gw.edgeUrl, gw.demoTestKey!);
    const created = await api.createSession({ merchant_reference: "metrics-refund-1", amount: "42.000" });
    expect(created.status, created.text).toBe(201);
    await payWithCard(created.body.checkout_url, { number: "4242424242424242" });
    expect((await api.getSession(created.body.id)).body.status).toBe("SUCCEEDED");
    const refunded = await api.refund(created.body.id, { refund_type: "FULL" });
    expect(refunded.status, refunded.text).toBe(201);
    await receiver.waitForRequests(1, undefined, 60_000);

    // The refund: one through the edge's route template, one settled by the acquirer.
    await eventually(
      'sum(gateway_http_requests_total{job="edge",route="/api/v1/gateway/sessions/:session_id/refund/",method="POST",status_class="2xx"})',
      (v) => v === 1,
    );
    await eventually('sum(gateway_refunds_total{job="refunds",outcome="succeeded"})', (v) => v === 1);
    // The failing endpoint: attempts failed with a retry scheduled, the cause an HTTP status.
    await eventually(
      'sum(gateway_webhook_attempts_total{job="webhooks",outcome="retry_scheduled"})',
      (v) => v >= 1,
    );
    await eventually(
      'sum(gateway_webhook_failures_total{job="webhooks",cause="http_status"})',
      (v) => v >= 1,
    );
    // Both outboxes drained after publishing: nothing pending in sessions or refunds.
    await eventually('max(gateway_outbox_pending_events{job=~"sessions|refunds"})', (v) => v === 0);
    expect(
      (await prometheus!.query("gateway_outbox_pending_events")).map((r) => r.metric.service).sort(),
    ).toEqual(["refunds", "sessions"]);
    // No manual refund is waiting.
    await eventually('sum(gateway_refunds_pending_manual{job="refunds"})', (v) => v === 0);
  });
});
