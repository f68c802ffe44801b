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
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed as T };
}

/** Client for the merchant REST API with one API key. */
export function merchantApi(baseUrl: string, apiKey: string) {
  const auth = { authorization: `Bearer ${apiKey}` };
  const url = (path: string) => `${baseUrl}/api/v1/gateway${path}`;
  return {
    createSession: (body: unknown) => request(url("/sessions/"), { method: "POST", headers: auth, body }),
    createSessionRaw: (rawBody: string) =>
      request(url("/sessions/"), {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        rawBody,
      }),
    getSession: (id: string) => request(url(`/sessions/${id}/`), { headers: auth }),
    listSessions: (query: Record<string, string> = {}) =>
      request(url(`/sessions/list/?${new URLSearchParams(query)}`), { headers: auth }),
    cancelSession: (id: string) => request(url(`/sessions/${id}/cancel/`), { method: "POST", headers: auth }),
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
