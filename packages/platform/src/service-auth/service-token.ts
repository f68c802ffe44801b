import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Short-lived service tokens: a JWT (RFC 7519) signed with HMAC-SHA256 under the key of one
 * (caller, target) pair. `iss` is the caller, `aud` the target; they live one minute, so a
 * token seen on the wire is worth little, and the clock skew we accept is bounded.
 */
export const SERVICE_TOKEN_LIFETIME_SECONDS = 60;
const CLOCK_SKEW_SECONDS = 30;
const HEADER = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url");

export interface ServiceTokenClaims {
  iss: string;
  aud: string;
  iat: number;
  exp: number;
}

function sign(input: string, key: Buffer): Buffer {
  return createHmac("sha256", key).update(input).digest();
}

export function mintServiceToken(o: {
  caller: string;
  audience: string;
  key: Buffer;
  nowMs: number;
}): string {
  const iat = Math.floor(o.nowMs / 1000);
  const claims: ServiceTokenClaims = {
    iss: o.caller,
    aud: o.audience,
    iat,
    exp: iat + SERVICE_TOKEN_LIFETIME_SECONDS,
  };
  const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  return `${body}.${sign(body, o.key).toString("base64url")}`;
}

export type TokenCheck = { ok: true; caller: string } | { ok: false; why: string; caller?: string };

type SignatureCheck =
  | { ok: true; claims: ServiceTokenClaims; key: Buffer }
  | { ok: false; why: string; caller?: string };

type TokenAddressing = { audience: string; keyOf: (caller: string) => Buffer | undefined };

/**
 * Verifies a token addressed to `audience`. `keyOf(caller)` gives the pair key of a caller
 * this service accepts, or undefined. The caller named in an unverified token is only used to
 * pick the key; nothing about it is trusted before the signature checks.
 */
export function verifyServiceToken(token: string, o: TokenAddressing & { nowMs: number }): TokenCheck {
  const signed = checkSignature(token, o);
  return signed.ok ? checkTimes(signed.claims, o.nowMs) : signed;
}

/** Tokens remembered by a verifier at most; it forgets them all when full. */
const MAX_REMEMBERED_TOKENS = 256;

/**
 * `verifyServiceToken` for one service, remembering the tokens whose shape, key, signature and
 * audience checked out. A caller sends the same token for a whole second (`serviceTokenInterceptor`),
 * so a repeat costs a lookup, not an HMAC. Its times are checked on every use, and it is checked
 * again in full if its caller's key is no longer the one that verified it. Only verified tokens
 * are remembered, so nobody without a key can fill the memory
 * (docs/decisions.md#a-service-token-is-signed-once-a-second-and-verified-once).
 */
export function serviceTokenVerifier(o: TokenAddressing): (token: string, nowMs: number) => TokenCheck {
  const verified = new Map<string, { claims: ServiceTokenClaims; key: Buffer }>();
  return (token, nowMs) => {
    let known = verified.get(token);
    if (known === undefined || o.keyOf(known.claims.iss) !== known.key) {
      const signed = checkSignature(token, o);
      if (!signed.ok) return signed;
      if (verified.size >= MAX_REMEMBERED_TOKENS) verified.clear();
      known = { claims: signed.claims, key: signed.key };
      verified.set(token, known);
    }
    return checkTimes(known.claims, nowMs);
  };
}

/** Everything about a token but its times: shape, caller's key, signature, audience. */
function checkSignature(token: string, o: TokenAddressing): SignatureCheck {
  const parts = token.split(".");
  if (parts.length !== 3) return { ok: false, why: "malformed token" };
  const [header, payload, signature] = parts as [string, string, string];
  if (header !== HEADER) return { ok: false, why: "unsupported token header" };
  let claims: Partial<ServiceTokenClaims>;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Partial<ServiceTokenClaims>;
  } catch {
    return { ok: false, why: "malformed token" };
  }
  if (
    typeof claims.iss !== "string" ||
    typeof claims.aud !== "string" ||
    typeof claims.iat !== "number" ||
    typeof claims.exp !== "number"
  ) {
    return { ok: false, why: "malformed token claims" };
  }
  const key = o.keyOf(claims.iss);
  if (!key) return { ok: false, why: "unknown caller", caller: claims.iss };
  const expected = sign(`${header}.${payload}`, key);
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, why: "bad signature", caller: claims.iss };
  if (claims.aud !== o.audience) return { ok: false, why: "token for another service", caller: claims.iss };
  return { ok: true, claims: claims as ServiceTokenClaims, key };
}

/** Whether a verified token is valid at `nowMs`, with the clock skew we accept. */
function checkTimes(claims: ServiceTokenClaims, nowMs: number): TokenCheck {
  const now = Math.floor(nowMs / 1000);
  if (claims.exp < now - CLOCK_SKEW_SECONDS) return { ok: false, why: "expired token", caller: claims.iss };
  if (claims.iat > now + CLOCK_SKEW_SECONDS || claims.exp - claims.iat > SERVICE_TOKEN_LIFETIME_SECONDS) {
    return { ok: false, why: "token not valid now", caller: claims.iss };
  }
  return { ok: true, caller: claims.iss };
}
