import { create } from "@bufbuild/protobuf";
import { timestampFromDate, timestampMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { type Clock, GatewayError, newId, randomBase62 } from "@gateway/platform";
import {
  type AccountScope,
  type BulkResendDeliveriesRequest,
  type Delivery,
  DeliverySchema,
  DeliveryStatus,
  type ListDeliveriesRequest,
  PageInfoSchema,
  type ResendDeliveryRequest,
  type RotateSecretRequest,
  type SetEndpointRequest,
  type WebhookService,
} from "@gateway/proto";

/** An account and mode, as plain data (the proto AccountScope or a literal). */
type ScopeLike = Pick<AccountScope, "merchantId" | "livemode">;

interface StoredDelivery {
  scope: ScopeLike;
  delivery: Delivery;
}

const OVERLAP_MS = 24 * 3600_000;

/**
 * In-memory test double of gateway.webhooks.v1.WebhookService with the contract the edge relies
 * on: every list confined to the scope (a cursor of another account is a validation error),
 * filters, newest-first cursor pagination, the secret returned only on the endpoint's creation,
 * rotation with the previous secret's expiry, resend as a new PENDING attempt of the event.
 */
export class FakeWebhooksService implements ServiceImpl<typeof WebhookService> {
  readonly deliveries: StoredDelivery[] = [];
  readonly endpoints = new Map<string, { url: string; secret: string }>();
  /** Every request received, to check what the edge sent. */
  readonly listRequests: ListDeliveriesRequest[] = [];
  readonly bulkRequests: BulkResendDeliveriesRequest[] = [];

  constructor(private readonly clock: Clock) {}

  /** Test setup: one stored attempt of `scope`, created now. */
  addDelivery(scope: ScopeLike, fields: Partial<Delivery> = {}): Delivery {
    const delivery = create(DeliverySchema, {
      id: newId("whd"),
      sessionId: newId("ps"),
      event: "session.succeeded",
      eventId: newId("evt"),
      url: "https://shop.example.tn/hooks",
      attemptNumber: 1,
      status: DeliveryStatus.SUCCEEDED,
      httpStatusCode: 200,
      responseTimeMs: 87,
      errorMessage: "",
      createdAt: timestampFromDate(this.clock.now()),
      ...fields,
    });
    this.deliveries.push({ scope: { merchantId: scope.merchantId, livemode: scope.livemode }, delivery });
    return delivery;
  }

  listDeliveries = async (req: ListDeliveriesRequest) => {
    this.listRequests.push(req);
    const scope = requireScope(req.scope);
    const limit = req.page?.limit || 20;
    if (limit < 1 || limit > 100)
      throw GatewayError.validation([{ field: "limit", code: "invalid", message: "From 1 to 100." }]);
    let rows = this.deliveries
      .filter((d) => sameScope(d.scope, scope))
      .map((d) => d.delivery)
      .filter((d) => req.status === DeliveryStatus.UNSPECIFIED || d.status === req.status)
      .filter((d) => req.event === "" || d.event === req.event)
      .filter((d) => req.sessionId === "" || d.sessionId === req.sessionId)
      .filter((d) => req.eventId === "" || d.eventId === req.eventId)
      .sort((a, b) => timestampMs(b.createdAt!) - timestampMs(a.createdAt!) || (a.id < b.id ? 1 : -1));
    const after = req.page?.startingAfter ?? "";
    if (after !== "") {
      const cursor = this.deliveries.find((d) => d.delivery.id === after && sameScope(d.scope, scope));
      if (!cursor)
        throw GatewayError.validation([
          { field: "starting_after", code: "invalid", message: "Not a delivery of this account." },
        ]);
      const at = rows.findIndex((d) => d.id === after);
      rows =
        at === -1
          ? rows.filter((d) => timestampMs(d.createdAt!) < timestampMs(cursor.delivery.createdAt!))
          : rows.slice(at + 1);
    }
    const page = rows.slice(0, limit);
    const hasMore = rows.length > limit;
    return {
      deliveries: page,
      pageInfo: create(PageInfoSchema, { hasMore, nextCursor: hasMore ? page[page.length - 1]!.id : "" }),
    };
  };

  resendDelivery = async (req: ResendDeliveryRequest) => {
    const original = this.deliveries.find((d) => d.delivery.id === req.deliveryId);
    // A scoped (merchant) resend sees only its own account and mode's deliveries.
    if (!original || (req.scope && !sameScope(original.scope, req.scope)))
      throw GatewayError.notFound("webhook delivery", req.deliveryId);
    const attempts = this.deliveries.filter((d) => d.delivery.eventId === original.delivery.eventId).length;
    const delivery = this.addDelivery(original.scope, {
      sessionId: original.delivery.sessionId,
      event: original.delivery.event,
      eventId: original.delivery.eventId,
      url: original.delivery.url,
      attemptNumber: attempts + 1,
      status: DeliveryStatus.PENDING,
      httpStatusCode: undefined,
      responseTimeMs: undefined,
    });
    return { delivery };
  };

  setEndpoint = async (req: SetEndpointRequest) => {
    const scope = requireScope(req.scope);
    if (!/^https?:\/\/\S+$/.test(req.url) || (scope.livemode && !req.url.startsWith("https://"))) {
      throw GatewayError.validation([
        {
          field: "url",
          code: req.url === "" ? "required" : "invalid",
          message: "Give an http(s) URL (https in live mode).",
        },
      ]);
    }
    const key = scopeKey(scope);
    const existing = this.endpoints.get(key);
    const secret = existing?.secret ?? `whsec_${randomBase62(32)}`;
    this.endpoints.set(key, { url: req.url, secret });
    return { url: req.url, secret: existing ? "" : secret };
  };

  rotateSecret = async (req: RotateSecretRequest) => {
    const scope = requireScope(req.scope);
    const key = scopeKey(scope);
    const existing = this.endpoints.get(key);
    const secret = `whsec_${randomBase62(32)}`;
    this.endpoints.set(key, { url: existing?.url ?? "", secret });
    return {
      secret,
      ...(existing
        ? { previousSecretExpiresAt: timestampFromDate(new Date(this.clock.now().getTime() + OVERLAP_MS)) }
        : {}),
    };
  };

  bulkResendDeliveries = async (req: BulkResendDeliveriesRequest) => {
    this.bulkRequests.push(req);
    const scope = requireScope(req.scope);
    const latest = new Map<string, Delivery>();
    for (const { scope: s, delivery } of this.deliveries) {
      if (!sameScope(s, scope)) continue;
      const known = latest.get(delivery.eventId);
      if (!known || delivery.attemptNumber > known.attemptNumber) latest.set(delivery.eventId, delivery);
    }
    const matching = [...latest.values()].filter(
      (d) =>
        (req.status === DeliveryStatus.UNSPECIFIED || d.status === req.status) &&
        (req.event === "" || d.event === req.event) &&
        (!req.createdGte || timestampMs(d.createdAt!) >= timestampMs(req.createdGte)) &&
        (!req.createdLte || timestampMs(d.createdAt!) <= timestampMs(req.createdLte)),
    );
    for (const d of matching) await this.resendDelivery({ deliveryId: d.id } as ResendDeliveryRequest);
    return { resent: matching.length, createdLte: req.createdLte ?? timestampFromDate(this.clock.now()) };
  };
}

function requireScope(scope: AccountScope | undefined): ScopeLike {
  if (!scope || scope.merchantId === "") throw new GatewayError("UNAUTHORIZED", "No account scope.");
  return scope;
}

function sameScope(a: ScopeLike, b: ScopeLike): boolean {
  return a.merchantId === b.merchantId && a.livemode === b.livemode;
}

function scopeKey(scope: ScopeLike): string {
  return `${scope.merchantId}|${scope.livemode}`;
}
