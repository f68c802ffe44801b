import type { Decision } from "./decision.js";

/**
 * Response headers for a decision, after draft-ietf-httpapi-ratelimit-headers-06 (Dec 2022):
 * RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset (delay-seconds, rounded up) and
 * RateLimit-Policy `<limit>;w=<window seconds>`. We use -06 rather than the later drafts
 * (-07 onwards replace the three fields by one `RateLimit` field with named policies) because
 * the three fields are what clients and libraries read today, and -06's RateLimit-Policy is
 * the matching form. Retry-After (RFC 9110) is added on denials: whole seconds rounded up,
 * at least 1, so a retry after it is admitted.
 */
export function rateLimitHeaders(d: Decision): Record<string, string> {
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(d.limit),
    "RateLimit-Remaining": String(Math.max(0, d.remaining)),
    "RateLimit-Reset": String(ceilSeconds(d.resetMs)),
    "RateLimit-Policy": `${d.limit};w=${Math.max(1, ceilSeconds(d.windowMs ?? 1000))}`,
  };
  if (!d.allowed) headers["Retry-After"] = String(Math.max(1, ceilSeconds(d.retryAfterMs)));
  return headers;
}

function ceilSeconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}
