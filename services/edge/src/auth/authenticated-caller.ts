import type { AccountScope } from "@gateway/proto";
import type { FastifyInstance, FastifyRequest } from "fastify";

/** Who the request acts for, as resolved from its API key. */
export interface AuthenticatedCaller {
  scope: AccountScope;
  keyId: string;
}

// A request slot under a symbol, as the request's trace context is kept
// (packages/platform/src/telemetry/fastify-tracing.ts): no global type augmentation of fastify,
// and no WeakMap entry made and collected for every request.
const CALLER = Symbol("the caller the request's API key names");
type RequestWithCaller = FastifyRequest & { [CALLER]?: AuthenticatedCaller };

/** Declares the slot setCaller fills, on every request of `app`: once, before the routes. */
export function declareCallerSlot(app: FastifyInstance): void {
  app.decorateRequest(CALLER, undefined);
}

export function setCaller(request: FastifyRequest, caller: AuthenticatedCaller): void {
  (request as RequestWithCaller)[CALLER] = caller;
}

/** The caller of an authenticated route; a route without the auth hook is a programming error. */
export function requireCaller(request: FastifyRequest): AuthenticatedCaller {
  const caller = (request as RequestWithCaller)[CALLER];
  if (!caller) throw new Error("route is missing the API key authentication hook");
  return caller;
}
