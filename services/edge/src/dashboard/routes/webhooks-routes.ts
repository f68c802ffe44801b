import { fromConnectError } from "@gateway/platform";
import { DeliveryStatus } from "@gateway/proto";
import type { FastifyInstance, FastifyReply } from "fastify";
import { formOf } from "../../checkout/form-body.js";
import { html, type SafeHtml } from "../../checkout/html.js";
import { audit } from "../audit.js";
import type { DashboardRouteDeps } from "../dashboard-deps.js";
import { type DashboardPage, pageOf } from "../dashboard-page.js";
import { readDayRange } from "../day-range.js";
import { may } from "../permissions.js";
import { renderSecretKey } from "../views/api-keys-page.js";
import { csrfInput } from "../views/dashboard-layout.js";
import { renderFlash } from "../views/dashboard-notice.js";
import { renderDeliveryDetail } from "../views/delivery-detail-page.js";
import { renderWebhooksPage } from "../views/webhooks-page.js";
import { DELIVERY_STATUSES, LOGGED_EVENTS, readDeliveryLogFilter } from "../webhooks/delivery-log-filter.js";

const PAGE = "/dashboard/developers/webhooks";
const DELIVERY_ID = /^whd_[0-9A-Za-z]{1,64}$/;

/**
 * The mode's webhooks: endpoint URL, signing secret (shown on demand, rotated with a chosen
 * overlap), the events sent, a test event, and the delivery log with each delivery's detail and
 * resends. Owners and developers change things; a viewer reads the log.
 */
export function registerWebhooksRoutes(scope: FastifyInstance, deps: DashboardRouteDeps): void {
  const { respond, secureCookies } = deps;
  const webhooks = deps.clients.webhooks;
  const endpoints = deps.clients.webhookEndpoints;
  if (!webhooks || !endpoints) return;

  const flashes: Record<string, (page: DashboardPage) => string> = {
    url: (p) => p.m.webhooks.urlSaved,
    rotated: (p) => p.m.webhooks.rotated,
    subscriptions: (p) => p.m.webhooks.subscriptionsSaved,
    test: (p) => p.m.webhooks.testSent,
  };

  const webhooksPage = async (
    reply: FastifyReply,
    page: DashboardPage,
    query: Record<string, unknown>,
    flash?: SafeHtml,
    status?: number,
  ) => {
    const viewer = page.viewer!;
    const filter = readDeliveryLogFilter(query, viewer.scope);
    const [{ endpoint }, listed] = await Promise.all([
      endpoints.getEndpoint({ scope: viewer.scope }),
      filter.request ? webhooks.listDeliveries(filter.request) : Promise.resolve(undefined),
    ]);
    const next = listed?.pageInfo?.hasMore
      ? `${PAGE}?${new URLSearchParams({ ...filter.form, after: listed.pageInfo.nextCursor }).toString()}`
      : undefined;
    const done = typeof query.done === "string" ? flashes[query.done] : undefined;
    return respond.page(reply, page, {
      status: status ?? (filter.problems.length > 0 ? 422 : 200),
      title: page.m.webhooks.title,
      section: "webhooks",
      main: renderWebhooksPage({
        m: page.m,
        endpoint: endpoint!,
        csrf: csrfInput(page),
        mayManage: may(viewer.user.role, "manage_webhooks"),
        flash: flash ?? (done ? renderFlash({ text: done(page), tone: "success" }) : html``),
        log: {
          form: filter.form,
          problems: filter.problems,
          deliveries: listed?.deliveries ?? [],
          ...(next ? { nextHref: next } : {}),
        },
      }),
    });
  };

  /** A refused change, shown on the page with the gateway's words (422). */
  const refused = async (reply: FastifyReply, page: DashboardPage, err: unknown) => {
    const failure = fromConnectError(err);
    if (failure.reason !== "VALIDATION_ERROR" && failure.reason !== "INVALID_STATE") throw failure;
    const details = failure.violations.map((v) => v.message).join(" ") || failure.message;
    return webhooksPage(
      reply,
      page,
      {},
      renderFlash({ text: `${page.m.webhooks.invalid}. ${details}`, tone: "alert" }),
      422,
    );
  };

  const manager = (reply: FastifyReply, page: DashboardPage): boolean => {
    if (may(page.viewer!.user.role, "manage_webhooks")) return true;
    respond.forbidden(reply, page);
    return false;
  };

  scope.get("/developers/webhooks", async (request, reply) =>
    webhooksPage(reply, pageOf(request, secureCookies), request.query as Record<string, unknown>),
  );

  scope.post("/developers/webhooks/endpoint", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    if (!manager(reply, page)) return reply;
    try {
      await webhooks.setEndpoint({
        scope: page.viewer!.scope,
        url: (formOf(request.body).get("url") ?? "").trim(),
      });
    } catch (err) {
      return refused(reply, page, err);
    }
    await audit(deps, page, "webhook.endpoint_set");
    return respond.redirect(reply, page, `${PAGE}?done=url`);
  });

  scope.post("/developers/webhooks/secret", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    if (!manager(reply, page)) return reply;
    const { endpoint } = await endpoints.getEndpoint({ scope: page.viewer!.scope });
    await audit(deps, page, "webhook.secret_revealed");
    return respond.page(reply, page, {
      title: page.m.webhooks.secretTitle,
      section: "webhooks",
      main: renderSecretKey(page.m, {
        title: page.m.webhooks.secretTitle,
        secret: endpoint!.secret,
        hint: page.m.webhooks.secretHint,
        backHref: PAGE,
        backLabel: page.m.webhooks.title,
      }),
    });
  });

  scope.post("/developers/webhooks/rotate", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    if (!manager(reply, page)) return reply;
    const overlapSeconds = Number(formOf(request.body).get("overlap_seconds") ?? "");
    try {
      await endpoints.rotateSecretWithOverlap({
        scope: page.viewer!.scope,
        overlapSeconds: Number.isInteger(overlapSeconds) ? overlapSeconds : -1,
      });
    } catch (err) {
      return refused(reply, page, err);
    }
    await audit(deps, page, "webhook.secret_rotated", String(overlapSeconds));
    return respond.redirect(reply, page, `${PAGE}?done=rotated`);
  });

  scope.post("/developers/webhooks/subscriptions", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    if (!manager(reply, page)) return reply;
    const enabledEvents = formOf(request.body).getAll("event");
    try {
      await endpoints.setSubscriptions({ scope: page.viewer!.scope, enabledEvents });
    } catch (err) {
      return refused(reply, page, err);
    }
    await audit(deps, page, "webhook.subscriptions_set", enabledEvents.join(",").slice(0, 200));
    return respond.redirect(reply, page, `${PAGE}?done=subscriptions`);
  });

  scope.post("/developers/webhooks/test-event", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    if (!manager(reply, page)) return reply;
    let deliveryId: string;
    try {
      deliveryId = (await endpoints.sendTestEvent({ scope: page.viewer!.scope })).delivery!.id;
    } catch (err) {
      return refused(reply, page, err);
    }
    await audit(deps, page, "webhook.test_sent", deliveryId);
    return respond.redirect(reply, page, `${PAGE}?done=test`);
  });

  scope.post("/developers/webhooks/resend", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    if (!manager(reply, page)) return reply;
    const body = formOf(request.body);
    const event = body.get("event") ?? "";
    const status = body.get("status") ?? "";
    const range = readDayRange(body.get("from") ?? "", body.get("to") ?? "");
    if (
      range.problems.length > 0 ||
      (event !== "" && !LOGGED_EVENTS.includes(event)) ||
      (status !== "" && !(DELIVERY_STATUSES as readonly string[]).includes(status))
    )
      return respond.notice(reply, page, 400, {
        title: page.m.errors.badRequestTitle,
        body: page.m.errors.badRequest,
        tone: "alert",
      });
    const { resent } = await webhooks.bulkResendDeliveries({
      scope: page.viewer!.scope,
      event,
      status:
        status === ""
          ? DeliveryStatus.UNSPECIFIED
          : DeliveryStatus[status as (typeof DELIVERY_STATUSES)[number]],
      ...(range.createdGte ? { createdGte: range.createdGte } : {}),
      ...(range.createdLte ? { createdLte: range.createdLte } : {}),
    });
    await audit(deps, page, "webhook.bulk_resent", String(resent));
    return webhooksPage(
      reply,
      page,
      {},
      renderFlash({ text: page.m.webhooks.resentCount(resent), tone: "success" }),
    );
  });

  scope.get<{ Params: { id: string } }>("/developers/webhooks/deliveries/:id", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    if (!DELIVERY_ID.test(request.params.id)) return respond.notFound(reply, page);
    let detail: Awaited<ReturnType<typeof endpoints.getDeliveryDetail>>;
    try {
      detail = await endpoints.getDeliveryDetail({
        scope: page.viewer!.scope,
        deliveryId: request.params.id,
      });
    } catch (err) {
      if (fromConnectError(err).reason === "NOT_FOUND") return respond.notFound(reply, page);
      throw err;
    }
    const resent = (request.query as Record<string, unknown>).done === "resent";
    return respond.page(reply, page, {
      title: page.m.webhooks.detail(request.params.id),
      section: "webhooks",
      main: renderDeliveryDetail(page.m, detail, {
        csrf: csrfInput(page),
        mayResend: may(page.viewer!.user.role, "manage_webhooks"),
        flash: resent ? renderFlash({ text: page.m.webhooks.resent, tone: "success" }) : html``,
      }),
    });
  });

  scope.post<{ Params: { id: string } }>(
    "/developers/webhooks/deliveries/:id/resend",
    async (request, reply) => {
      const page = pageOf(request, secureCookies);
      if (!manager(reply, page)) return reply;
      if (!DELIVERY_ID.test(request.params.id)) return respond.notFound(reply, page);
      let newId: string;
      try {
        newId = (await webhooks.resendDelivery({ scope: page.viewer!.scope, deliveryId: request.params.id }))
          .delivery!.id;
      } catch (err) {
        if (fromConnectError(err).reason === "NOT_FOUND") return respond.notFound(reply, page);
        throw err;
      }
      await audit(deps, page, "webhook.resent", request.params.id);
      return respond.redirect(reply, page, `${PAGE}/deliveries/${newId}?done=resent`);
    },
  );
}
