/** Reads a Cookie header into name -> value (first occurrence wins, as browsers send the most specific first). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (header === undefined) return cookies;
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=");
    if (at === -1) continue;
    const name = pair.slice(0, at).trim();
    let value = pair.slice(at + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (name !== "" && !cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}

export interface CookieOptions {
  path: string;
  httpOnly: boolean;
  secure: boolean;
  /** Seconds; a session cookie when absent. */
  maxAge?: number;
}

/**
 * A Set-Cookie value. SameSite=Lax: the cookie travels on the buyer's own top-level navigations
 * (coming back from the acquirer) but not on cross-site POSTs, which is half of the CSRF defence.
 * Values are restricted to cookie-octets by their callers (base64url, language codes).
 */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, `Path=${options.path}`, "SameSite=Lax"];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  if (options.httpOnly) parts.push("HttpOnly");
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}
