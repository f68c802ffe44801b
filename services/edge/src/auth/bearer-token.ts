/** RFC 6750 b64token after "Bearer " (scheme case-insensitive, RFC 9110 11.1). */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** Longer values are refused without asking anyone: no key we issue comes close. */
const MAX_TOKEN_LENGTH = 512;

/** The token of an `Authorization: Bearer <token>` header, or undefined when missing or malformed. */
export function readBearerToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== "string") return undefined;
  const token = BEARER.exec(header)?.[1];
  if (token === undefined || token.length > MAX_TOKEN_LENGTH) return undefined;
  return token;
}
