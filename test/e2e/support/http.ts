import {
  type CreateRefundParams,
  type CreateSessionParams,
  Gateway,
  GatewayProblemError,
} from "@gateway/sdk";

/** A small fetch wrapper for black-box tests: JSON in, status + headers + parsed body out. */
export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export async function request<T = any>(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; rawBody?: string } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(url, {
    method: init.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
  });
  return resultOf<T>(res);
}

async function resultOf<T>(res: Response): Promise<HttpResult<T>> {
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed as T };
}

/**
 * Client for the merchant REST API with one API key: every call goes through @gateway/sdk (so the
 * SDK is exercised by every suite), without its retries (a suite sees each answer the gateway gives,
 * 429s included), and answers the raw HTTP result the assertions read. Bodies are `unknown` on
 * purpose: suites send invalid ones. Requests that must be malformed HTTP use `request` instead.
 */
export function merchantApi(baseUrl: string, apiKey: string) {
  async function call(operation: (gateway: Gateway) => Promise<unknown>): Promise<HttpResult> {
    let answered: Response | undefined;
    const gateway = new Gateway({
      apiKey,
      baseUrl,
      maxRetries: 0,
      fetch: async (req) => {
        const res = await fetch(req);
        answered = res.clone();
        return res;
      },
    });
    try {
      await operation(gateway);
    } catch (error) {
      if (!(error instanceof GatewayProblemError) || answered === undefined) throw error;
    }
    return resultOf(answered!);
  }
  return {
    createSession: (body: unknown) => call((g) => g.sessions.create(body as CreateSessionParams)),
    createSessionRaw: (rawBody: string) =>
      request(`${baseUrl}/api/v1/gateway/sessions/`, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        rawBody,
      }),
    getSession: (id: string) => call((g) => g.sessions.retrieve(id)),
    listSessions: (query: Record<string, string> = {}) => call((g) => g.sessions.list(query)),
    cancelSession: (id: string) => call((g) => g.sessions.cancel(id)),
    createCheckoutLink: (id: string) => call((g) => g.sessions.createCheckoutLink(id)),
    /** Without `idempotencyKey` no Idempotency-Key is sent (the SDK's default key is turned off). */
    refund: (sessionId: string, body: unknown, idempotencyKey?: string) =>
      call((g) =>
        g.sessions.refund(sessionId, body as CreateRefundParams, { idempotencyKey: idempotencyKey ?? false }),
      ),
    sessionDeliveries: (sessionId: string, query: Record<string, string> = {}) =>
      call((g) => g.sessions.deliveries(sessionId, query)),
    listDeliveries: (query: Record<string, string> = {}) => call((g) => g.deliveries.list(query)),
  };
}

/** Client for the operator admin API. */
export function adminApi(baseUrl: string, token: string) {
  const auth = { authorization: `Bearer ${token}` };
  const url = (path: string) => `${baseUrl}/admin/v1${path}`;
  return {
    createMerchant: (name: string) =>
      request(url("/merchants"), { method: "POST", headers: auth, body: { name } }),
    verifyMerchant: (id: string) =>
      request(url(`/merchants/${id}/verification`), { method: "POST", headers: auth }),
    createKey: (merchantId: string, mode: "test" | "live", expiresAt?: string) =>
      request(url(`/merchants/${merchantId}/api-keys`), {
        method: "POST",
        headers: auth,
        body: expiresAt ? { mode, expires_at: expiresAt } : { mode },
      }),
    revokeKey: (keyId: string) => request(url(`/api-keys/${keyId}`), { method: "DELETE", headers: auth }),
    setTerminal: (
      merchantId: string,
      mode: "test" | "live",
      terminal: { base_url: string; username: string; password: string; active: boolean },
    ) =>
      request(url(`/merchants/${merchantId}/terminals/${mode}`), {
        method: "PUT",
        headers: auth,
        body: terminal,
      }),
    setRate: (merchantId: string, currency: string, rate: string) =>
      request(url(`/merchants/${merchantId}/exchange-rates/${currency}`), {
        method: "PUT",
        headers: auth,
        body: { rate },
      }),
  };
}

export type MerchantApi = ReturnType<typeof merchantApi>;
export type AdminApi = ReturnType<typeof adminApi>;
