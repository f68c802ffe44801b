import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import type { Clock } from "../clock.js";
import type { Logger } from "../logger.js";
import { mayCall, type ServedServiceName } from "./caller-permissions.js";
import type { ServiceAuthKeys } from "./service-auth-keys.js";
import { mintServiceToken, serviceTokenVerifier } from "./service-token.js";

const HEADER = "authorization";

/**
 * Services any caller may use without a token: health (probes, load balancers) and, when the
 * operator switches it on, server reflection (it describes the API, it reads no data).
 */
export const OPEN_SERVICES: ReadonlySet<string> = new Set([
  "grpc.health.v1.Health",
  "grpc.reflection.v1.ServerReflection",
  "grpc.reflection.v1alpha.ServerReflection",
]);

/**
 * Client interceptor: every call to `audience` carries a current token signed with this
 * process's key for that target. Throws at construction when the key is missing, so a
 * misconfigured process stops at start instead of failing its first call.
 */
export function serviceTokenInterceptor(keys: ServiceAuthKeys, audience: string, clock: Clock): Interceptor {
  const key = keys.outgoing.get(audience);
  if (!key) throw new Error(`GATEWAY_SERVICE_AUTH_KEYS has no key for ${keys.self}>${audience}`);
  // A token's times are whole seconds, so every call in one second gets the same token: it is
  // signed once a second, not once a call (docs/decisions.md#a-service-token-is-signed-once-a-second-and-verified-once).
  let minted = { second: Number.NaN, header: "" };
  return (next) => (req) => {
    const nowMs = clock.now().getTime();
    const second = Math.floor(nowMs / 1000);
    if (second !== minted.second) {
      minted = { second, header: `Bearer ${mintServiceToken({ caller: keys.self, audience, key, nowMs })}` };
    }
    req.header.set(HEADER, minted.header);
    return next(req);
  };
}

/**
 * Server interceptor: a call is served only when it carries a valid token addressed to this
 * service from a caller the permission table allows for that method. No token or a bad one
 * is UNAUTHENTICATED, a known caller outside its grants is PERMISSION_DENIED. The errors carry
 * no ErrorDetail on purpose: the edge then answers its client 500, never a 401/403 that would
 * blame the merchant's key for an internal misconfiguration.
 */
export function serviceAuthGuard(o: {
  keys: ServiceAuthKeys;
  target: ServedServiceName;
  clock: Clock;
  logger: Logger;
}): Interceptor {
  const verify = serviceTokenVerifier({
    audience: o.target,
    keyOf: (caller) => o.keys.incoming.get(caller),
  });
  return (next) => (req) => {
    if (OPEN_SERVICES.has(req.service.typeName)) return next(req);
    const method = `${req.service.typeName}/${req.method.name}`;
    const refuse = (code: Code, why: string, caller?: string): never => {
      o.logger.warn({ method, caller, why }, "internal call refused");
      throw new ConnectError(
        code === Code.Unauthenticated
          ? "Service credentials are missing or invalid."
          : "This caller may not call this method.",
        code,
      );
    };
    const header = req.header.get(HEADER) ?? "";
    const token = /^Bearer (\S+)$/i.exec(header)?.[1];
    if (!token) return refuse(Code.Unauthenticated, "no service token");
    const check = verify(token, o.clock.now().getTime());
    if (!check.ok) return refuse(Code.Unauthenticated, check.why, check.caller);
    if (!mayCall(o.target, check.caller, req.method.name))
      return refuse(Code.PermissionDenied, "method not granted", check.caller);
    return next(req);
  };
}
