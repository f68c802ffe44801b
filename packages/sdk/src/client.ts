import { randomUUID } from "node:crypto";
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./generated/openapi.js";
import { eachItem } from "./pages.js";
import { errorFor } from "./problem-error.js";
import { type RetryListener, type RetryOptions, retryingFetch } from "./retrying-fetch.js";
import type {
  CheckoutLink,
  CreateRefundParams,
  CreateSessionParams,
  Delivery,
  DeliveryList,
  DeliveryListQuery,
  RefundResult,
  Session,
  SessionDeliveriesQuery,
  SessionList,
  SessionListQuery,
} from "./types.js";
import { webhooks } from "./webhooks.js";

export const SDK_VERSION = "0.1.0";

export interface GatewayOptions extends RetryOptions {
  /** A secret API key, `sk_test_…` or `sk_live_…`. */
  apiKey: string;
  /** Where the gateway answers, such as `https://pay.example.com` or `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** The fetch to send with (a proxy agent, a test double); default the global fetch. */
  fetch?: (input: Request) => Promise<Response>;
  /** Told before each retry (attempt, wait, reason). */
  onRetry?: RetryListener;
}

export interface RefundOptions {
  /**
   * Makes the refund safe to send again (docs/api/refunds.md#retrying-safely). Default: a fresh
   * random key per call, which the SDK's own retries reuse. Pass your own (for example
   * `refund-<order>-<n>`) to be safe across process restarts too, or `false` to send none (and
   * then a dropped connection or a 502 is not retried).
   */
  idempotencyKey?: string | false;
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorFor(response, error);
  return data as T;
}

/**
 * The gateway's merchant API. Every method returns the parsed body on 2xx and throws
 * `GatewayProblemError` otherwise (`GatewayConnectionError` when the gateway cannot be reached).
 * 429, 502 and 503 answers and dropped connections are retried with backoff (honouring
 * `Retry-After`) only where a repeat cannot pay or refund twice: see retrying-fetch.ts.
 */
export class Gateway {
  /** The typed openapi-fetch client underneath, for anything the methods below do not cover. */
  readonly raw: Client<paths>;
  readonly webhooks = webhooks;

  constructor(options: GatewayOptions) {
    if (typeof options.apiKey !== "string" || options.apiKey === "")
      throw new TypeError("apiKey is required");
    if (typeof options.baseUrl !== "string" || options.baseUrl === "")
      throw new TypeError("baseUrl is required (for example http://127.0.0.1:8080)");
    this.raw = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      headers: { authorization: `Bearer ${options.apiKey}`, "user-agent": `gateway-sdk-node/${SDK_VERSION}` },
      fetch: retryingFetch(options, options.fetch, options.onRetry),
    });
  }

  readonly sessions = {
    /**
     * Creates a session (201), or answers the first one for a repeat of the same
     * `merchant_reference` with the same fields (200): that is what makes a retried create safe.
     */
    create: (params: CreateSessionParams): Promise<Session> =>
      unwrap(this.raw.POST("/api/v1/gateway/sessions/", { body: params })),

    retrieve: (sessionId: string): Promise<Session> =>
      unwrap(
        this.raw.GET("/api/v1/gateway/sessions/{session_id}/", {
          params: { path: { session_id: sessionId } },
        }),
      ),

    /** One page, most recent first. */
    list: (query: SessionListQuery = {}): Promise<SessionList> =>
      unwrap(this.raw.GET("/api/v1/gateway/sessions/list/", { params: { query } })),

    /** Every session matching `query`, across pages: `for await (const s of gateway.sessions.listAll())`. */
    listAll: (query: SessionListQuery = {}): AsyncGenerator<Session, void, undefined> =>
      eachItem(query, (q) => this.sessions.list(q)),

    cancel: (sessionId: string): Promise<Session> =>
      unwrap(
        this.raw.POST("/api/v1/gateway/sessions/{session_id}/cancel/", {
          params: { path: { session_id: sessionId } },
        }),
      ),

    /** A fresh hosted checkout link for a session that can still be paid. */
    createCheckoutLink: (sessionId: string): Promise<CheckoutLink> =>
      unwrap(
        this.raw.POST("/api/v1/gateway/sessions/{session_id}/checkout/", {
          params: { path: { session_id: sessionId } },
        }),
      ),

    /** Refunds a paid session, FULL or PARTIAL; sends an Idempotency-Key unless told not to. */
    refund: (
      sessionId: string,
      params: CreateRefundParams,
      options: RefundOptions = {},
    ): Promise<RefundResult> => {
      const key = options.idempotencyKey === undefined ? `sdk_${randomUUID()}` : options.idempotencyKey;
      return unwrap(
        this.raw.POST("/api/v1/gateway/sessions/{session_id}/refund/", {
          params: {
            path: { session_id: sessionId },
            header: key === false ? {} : { "Idempotency-Key": key },
          },
          body: params,
        }),
      );
    },

    /** One page of a session's webhook deliveries. */
    deliveries: (sessionId: string, query: SessionDeliveriesQuery = {}): Promise<DeliveryList> =>
      unwrap(
        this.raw.GET("/api/v1/gateway/sessions/{session_id}/webhooks/", {
          params: { path: { session_id: sessionId }, query },
        }),
      ),
  };

  readonly deliveries = {
    /** One page of the account's webhook deliveries (this key's mode), most recent first. */
    list: (query: DeliveryListQuery = {}): Promise<DeliveryList> =>
      unwrap(this.raw.GET("/api/v1/gateway/webhooks/", { params: { query } })),

    listAll: (query: DeliveryListQuery = {}): AsyncGenerator<Delivery, void, undefined> =>
      eachItem(query, (q) => this.deliveries.list(q)),

    /**
     * Sends a delivery's event again now (202, the new PENDING attempt). Not resent by the SDK
     * after a dropped connection: the event would go out twice (receivers dedupe on its id, but
     * the caller should decide).
     */
    resend: (deliveryId: string): Promise<Delivery> =>
      unwrap(
        this.raw.POST("/api/v1/gateway/webhooks/{delivery_id}/resend/", {
          params: { path: { delivery_id: deliveryId } },
        }),
      ),
  };
}
