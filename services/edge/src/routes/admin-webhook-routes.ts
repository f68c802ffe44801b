import { create } from "@bufbuild/protobuf";
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import { type FieldViolation, GatewayError } from "@gateway/platform";
import {
  type AccountScope,
  AccountScopeSchema,
  type AccountsService,
  DeliveryStatus,
  type WebhookEndpointsService,
  type WebhookService,
} from "@gateway/proto";
import type { FastifyInstance, FastifyReply } from "fastify";
import { type JsonObject, requireJsonObjectBody, requireNoMembers } from "../http/json-body.js";
import { sendJson } from "../http/send-json.js";
import { violation } from "../mapping/field-violations.js";
import { formatTimestamp, parseRfc3339 } from "../mapping/rfc3339.js";
import { DELIVERY_STATUS_BY_NAME, deliveryToJson, WEBHOOK_EVENT_NAMES } from "./webhook-routes.js";

export interface AdminWebhookRoutesDeps {
  accounts: Client<typeof AccountsService>;
  webhooks: Client<typeof WebhookService>;
  /** The subscriptions route; absent = not served. */
  webhookEndpoints?: Client<typeof WebhookEndpointsService>;
}

type ModeParams = { id: string; mode: string };

/** Reads an admin body's members by type; every problem is reported at once (422). */
class BodyReader {
  readonly violations: FieldViolation[] = [];

  constructor(
    private readonly body: JsonObject,
    private readonly known: readonly string[],
  ) {}

  private value(name: string): unknown {
    return Object.hasOwn(this.body, name) && this.body[name] !== null ? this.body[name] : undefined;
  }

  string(name: string, required: boolean): string | undefined {
    const value = this.value(name);
    if (value === undefined) {
      if (required) this.violations.push(violation.required(name));
      return undefined;
    }
    if (typeof value !== "string") {
      this.violations.push(violation.notString(name));
      return undefined;
    }
    return value;
  }

  /** A required array of strings. */
  strings(name: string): string[] {
    const value = this.value(name);
    if (value === undefined) {
      this.violations.push(violation.required(name));
      return [];
    }
    if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
      this.violations.push(violation.invalid(name, "Must be an array of event type strings."));
      return [];
    }
    return value as string[];
  }

  timestamp(name: string): Timestamp | undefined {
    const raw = this.string(name, false);
    if (raw === undefined) return undefined;
    const at = parseRfc3339(raw);
    if (!at)
      this.violations.push(
        violation.invalid(name, "Must be an RFC 3339 date-time such as 2026-01-31T12:00:00Z."),
      );
    return at;
  }

  finish(): void {
    for (const name of Object.keys(this.body))
      if (!this.known.includes(name)) this.violations.push(violation.unknown(name));
    if (this.violations.length > 0) throw GatewayError.validation(this.violations);
  }
}

function livemodeOf(mode: string | undefined, violations: FieldViolation[]): boolean {
  if (mode !== undefined && mode !== "test" && mode !== "live")
    violations.push(violation.invalid("mode", 'Must be "test" or "live".'));
  return mode === "live";
}

function scopeOf(merchantId: string, mode: string): AccountScope {
  const violations: FieldViolation[] = [];
  const livemode = livemodeOf(mode, violations);
  if (violations.length > 0) throw GatewayError.validation(violations);
  return create(AccountScopeSchema, { merchantId, livemode });
}

/** Secrets are shown once: never kept by a cache on the way. */
function noStore(reply: FastifyReply): FastifyReply {
  return reply.header("cache-control", "no-store");
}

/**
 * Webhook endpoints, secret rotation and resends on the admin API (docs/api/admin.md#webhook-endpoints).
 * Register inside the /admin/v1 plugin, after its admin-token guard.
 */
export function registerAdminWebhookRoutes(admin: FastifyInstance, deps: AdminWebhookRoutesDeps): void {
  const { accounts, webhooks } = deps;
  // Webhook settings for a merchant that does not exist would be orphans: 404 instead.
  const requireMerchant = (merchantId: string) => accounts.getMerchant({ merchantId });

  admin.put<{ Params: ModeParams }>("/merchants/:id/webhook-endpoints/:mode", async (request, reply) => {
    const scope = scopeOf(request.params.id, request.params.mode);
    const reader = new BodyReader(requireJsonObjectBody(request.body).value, ["url"]);
    const url = reader.string("url", true);
    reader.finish();
    await requireMerchant(scope.merchantId);
    const response = await webhooks.setEndpoint({ scope, url: url ?? "" });
    // The secret only when this call created it (first set), like an API key; null afterwards.
    return sendJson(noStore(reply), 200, {
      url: response.url,
      secret: response.secret === "" ? null : response.secret,
    });
  });

  const webhookEndpoints = deps.webhookEndpoints;
  if (webhookEndpoints) {
    admin.put<{ Params: ModeParams }>(
      "/merchants/:id/webhook-endpoints/:mode/subscriptions",
      async (request, reply) => {
        const scope = scopeOf(request.params.id, request.params.mode);
        const reader = new BodyReader(requireJsonObjectBody(request.body).value, ["enabled_events"]);
        const enabledEvents = reader.strings("enabled_events");
        reader.finish();
        await requireMerchant(scope.merchantId);
        const { endpoint } = await webhookEndpoints.setSubscriptions({ scope, enabledEvents });
        return sendJson(reply, 200, { enabled_events: endpoint?.enabledEvents ?? [] });
      },
    );
  }

  admin.post<{ Params: ModeParams }>(
    "/merchants/:id/webhook-endpoints/:mode/rotate-secret",
    async (request, reply) => {
      const scope = scopeOf(request.params.id, request.params.mode);
      requireNoMembers(request.body);
      await requireMerchant(scope.merchantId);
      const response = await webhooks.rotateSecret({ scope });
      return sendJson(noStore(reply), 200, {
        secret: response.secret,
        previous_secret_expires_at: formatTimestamp(response.previousSecretExpiresAt),
      });
    },
  );

  admin.post<{ Params: { id: string } }>("/webhook-deliveries/:id/resend", async (request, reply) => {
    requireNoMembers(request.body);
    const response = await webhooks.resendDelivery({ deliveryId: request.params.id });
    return sendJson(reply, 202, deliveryToJson(response.delivery));
  });

  admin.post("/webhook-deliveries/resend", async (request, reply) => {
    const reader = new BodyReader(requireJsonObjectBody(request.body).value, [
      "merchant_id",
      "mode",
      "created_gte",
      "created_lte",
      "status",
      "event",
    ]);
    const merchantId = reader.string("merchant_id", true);
    const livemode = livemodeOf(reader.string("mode", true), reader.violations);
    const createdGte = reader.timestamp("created_gte");
    const createdLte = reader.timestamp("created_lte");
    const statusName = reader.string("status", false);
    const status =
      statusName === undefined ? DeliveryStatus.UNSPECIFIED : DELIVERY_STATUS_BY_NAME.get(statusName);
    if (status === undefined)
      reader.violations.push(
        violation.invalid("status", `Must be one of ${[...DELIVERY_STATUS_BY_NAME.keys()].join(", ")}.`),
      );
    const event = reader.string("event", false);
    if (event !== undefined && !WEBHOOK_EVENT_NAMES.includes(event))
      reader.violations.push(violation.invalid("event", `Must be one of ${WEBHOOK_EVENT_NAMES.join(", ")}.`));
    reader.finish();
    await requireMerchant(merchantId!);
    const response = await webhooks.bulkResendDeliveries({
      scope: create(AccountScopeSchema, { merchantId: merchantId!, livemode }),
      createdGte,
      createdLte,
      status: status ?? DeliveryStatus.UNSPECIFIED,
      event: event ?? "",
    });
    // The cutoff to pass back as created_lte: repeats then continue where this call stopped.
    return sendJson(reply, 202, {
      resent: response.resent,
      created_lte: formatTimestamp(response.createdLte),
    });
  });
}
