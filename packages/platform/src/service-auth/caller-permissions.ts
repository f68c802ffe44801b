import type { GatewayServiceName } from "./service-names.js";

/** Every method of the target service, or the named ones (proto method names). */
export type MethodGrant = "*" | readonly string[];

/**
 * Who may call what, per target service, derived from the clients in the code:
 * - the edge serves the public API and the admin API, so it may call every method;
 * - sessions reads rates, fee plans, merchants and terminal credentials from accounts
 *   (services/sessions/src/adapters/accounts, @gateway/acquirer's terminal provider);
 * - refunds reads a paid session from sessions and terminal credentials from accounts.
 * Webhooks calls no service (it learns everything from events). A caller missing here is refused.
 * The standard health service is open to everyone (probes, load balancers).
 */
export const callerPermissions: Record<
  Exclude<GatewayServiceName, "edge">,
  Partial<Record<GatewayServiceName, MethodGrant>>
> = {
  accounts: {
    edge: "*",
    sessions: ["GetExchangeRate", "GetFeePlan", "GetMerchant", "ResolveTerminalCredentials"],
    refunds: ["ResolveTerminalCredentials"],
  },
  sessions: {
    edge: "*",
    refunds: ["GetSession"],
  },
  refunds: { edge: "*" },
  webhooks: { edge: "*" },
};

/** A served service name as used in this table ("sessions"), or undefined for the edge. */
export type ServedServiceName = keyof typeof callerPermissions;

export function mayCall(target: ServedServiceName, caller: string, method: string): boolean {
  const grant = (callerPermissions[target] as Partial<Record<string, MethodGrant>>)[caller];
  if (grant === undefined) return false;
  return grant === "*" || grant.includes(method);
}

/** Every (caller, target) pair that needs a key: what a deployment must provision. */
export function callerTargetPairs(): Array<{ caller: GatewayServiceName; target: ServedServiceName }> {
  const pairs: Array<{ caller: GatewayServiceName; target: ServedServiceName }> = [];
  for (const [target, callers] of Object.entries(callerPermissions) as Array<
    [ServedServiceName, Partial<Record<GatewayServiceName, MethodGrant>>]
  >) {
    for (const caller of Object.keys(callers) as GatewayServiceName[]) pairs.push({ caller, target });
  }
  return pairs;
}
