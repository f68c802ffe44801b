import type { AccountScope } from "@gateway/proto";
import type { FastifyRequest } from "fastify";

/** Who the request acts for, as resolved from its API key. */
export interface AuthenticatedCaller {
  scope: AccountScope;
  keyId: string;
}

// A WeakMap rather than a request decorator: no global type augmentation of fastify.
const callers = new WeakMap<FastifyRequest, AuthenticatedCaller>();

export function setCaller(request: FastifyRequest, caller: AuthenticatedCaller): void {
  callers.set(request, caller);
}

/** The caller of an authenticated route; a route without the auth hook is a programming error. */
export function requireCaller(request: FastifyRequest): AuthenticatedCaller {
  const caller = callers.get(request);
  if (!caller) throw new Error("route is missing the API key authentication hook");
  return caller;
}
