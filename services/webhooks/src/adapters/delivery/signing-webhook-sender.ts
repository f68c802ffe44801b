import { TRACER_NAME } from "@gateway/platform";
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { SignedSendRequest, WebhookSender, WebhookSendOutcome } from "../../app/ports.js";
import { buildWebhookHeaders, type HttpDeliverer } from "../http/index.js";

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
}

/**
 * The WebhookSender over the HTTP deliverer: the headers of docs/api/webhooks.md#request-headers and the Standard Webhooks
 * ones, all from the same secrets and the same bytes, then one POST. Each POST is a CLIENT span
 * in the trace of the event that caused it; the trace context itself is not sent to the
 * merchant (our trace ids are none of the receiver's business).
 */
export function createSigningWebhookSender(deliverer: HttpDeliverer): WebhookSender {
  const tracer = trace.getTracer(TRACER_NAME);
  return {
    async send(request: SignedSendRequest): Promise<WebhookSendOutcome> {
      const headers = buildWebhookHeaders({
        webhookId: request.webhookId,
        event: request.event,
        body: request.body,
        secrets: request.secrets,
        timestamp: request.timestamp,
      });
      const parent = request.traceContext
        ? propagation.extract(ROOT_CONTEXT, request.traceContext)
        : context.active();
      const span = tracer.startSpan(
        `webhook POST ${request.event}`,
        {
          kind: SpanKind.CLIENT,
          // Only the host: a merchant's URL may carry tokens in its path or query.
          attributes: {
            "http.request.method": "POST",
            "server.address": hostOf(request.url),
            "gateway.webhook.id": request.webhookId,
            "gateway.webhook.event": request.event,
          },
        },
        parent,
      );
      try {
        const outcome = await deliverer.deliver({
          url: request.url,
          body: request.body,
          headers,
          timeoutMs: request.timeoutMs,
        });
        if (outcome.httpStatus !== undefined)
          span.setAttribute("http.response.status_code", outcome.httpStatus);
        if (!outcome.ok)
          span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.errorMessage ?? "delivery failed" });
        return { ...outcome, sentHeaders: headers };
      } finally {
        span.end();
      }
    },
  };
}
