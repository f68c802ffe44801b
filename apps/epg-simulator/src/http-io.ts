import type { IncomingMessage, ServerResponse } from "node:http";

/** Forms and protocol calls are small; anything bigger is refused before it is buffered. */
export const MAX_BODY_BYTES = 16 * 1024;

export class BodyTooLargeError extends Error {
  override readonly name = "BodyTooLargeError";
}

/** Reads an application/x-www-form-urlencoded body (any other type reads as empty). */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > MAX_BODY_BYTES) throw new BodyTooLargeError();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError();
    chunks.push(buffer);
  }
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return new URLSearchParams();
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

export function sendJson(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  res.end(text);
}

export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  extraHeaders: Record<string, string> = {},
): void {
  res.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    ...extraHeaders,
  });
  res.end(text);
}

/**
 * An HTML page with a strict policy: nothing loads from anywhere (no scripts at all), the one
 * inline style block is allowed by its nonce, forms post only to this page and (because browsers
 * apply form-action to the redirect that follows) to the merchant's return and fail origins.
 */
export function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  policy: { styleNonce: string; formTargets: string[] },
): void {
  const formAction = ["'self'", ...policy.formTargets].join(" ");
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "content-length": Buffer.byteLength(html),
    "content-security-policy": `default-src 'none'; style-src 'nonce-${policy.styleNonce}'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
  });
  res.end(html);
}

/** 303 See Other: the browser follows with a GET, so a reload never re-posts the card. */
export function redirectSeeOther(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, "cache-control": "no-store", "content-length": "0" });
  res.end();
}
