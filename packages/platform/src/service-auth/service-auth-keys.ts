import { randomBytes } from "node:crypto";
import { callerTargetPairs } from "./caller-permissions.js";
import { type GatewayServiceName, isGatewayServiceName } from "./service-names.js";

/** Shortest accepted pair key: 256 bits, the size of the HMAC-SHA256 output. */
const MIN_KEY_BYTES = 32;

/**
 * The keys one process holds: one per (caller, target) pair it is part of. A pair key signs
 * the caller's tokens for that one target, so a target that holds it can only forge calls to
 * itself, never to a third service.
 */
export interface ServiceAuthKeys {
  self: GatewayServiceName;
  /** Keys this process signs with, by target service. */
  outgoing: ReadonlyMap<string, Buffer>;
  /** Keys this process verifies with, by calling service. */
  incoming: ReadonlyMap<string, Buffer>;
}

/**
 * Parses `GATEWAY_SERVICE_AUTH_KEYS`: comma-separated `caller>target=<base64url key>` entries.
 * A process is given only the pairs it is part of; any other pair is refused, so a Secret that
 * hands every key to every pod is caught at start. Messages never echo key material.
 */
export function parseServiceAuthKeys(self: GatewayServiceName) {
  return (raw: string): ServiceAuthKeys => {
    const outgoing = new Map<string, Buffer>();
    const incoming = new Map<string, Buffer>();
    for (const [index, entry] of raw
      .split(",")
      .map((e) => e.trim())
      .filter(Boolean)
      .entries()) {
      const match = /^([a-z]+)>([a-z]+)=([A-Za-z0-9_-]+)$/.exec(entry);
      if (!match) throw new Error(`entry ${index + 1} is not caller>target=<base64url key>`);
      const [, caller, target, encoded] = match as unknown as [string, string, string, string];
      if (!isGatewayServiceName(caller) || !isGatewayServiceName(target))
        throw new Error(`entry ${index + 1} names an unknown service`);
      if (caller === target) throw new Error(`entry ${index + 1} names the same service twice`);
      if (caller !== self && target !== self)
        throw new Error(
          `entry ${index + 1} (${caller}>${target}) does not concern ${self}: give each process only its own keys`,
        );
      const key = Buffer.from(encoded, "base64url");
      if (key.length < MIN_KEY_BYTES)
        throw new Error(`the key of ${caller}>${target} is shorter than ${MIN_KEY_BYTES} bytes`);
      const map = caller === self ? outgoing : incoming;
      const peer = caller === self ? target : caller;
      if (map.has(peer)) throw new Error(`${caller}>${target} is given twice`);
      map.set(peer, key);
    }
    return { self, outgoing, incoming };
  };
}

/**
 * Fresh random keys for every pair of the permission table, as the `GATEWAY_SERVICE_AUTH_KEYS`
 * value of each service (a local stack, tests). Production keys come from a Kubernetes Secret.
 */
export function generateServiceAuthKeys(): Record<GatewayServiceName, string> {
  const entries: Record<GatewayServiceName, string[]> = {
    edge: [],
    accounts: [],
    sessions: [],
    refunds: [],
    webhooks: [],
  };
  for (const { caller, target } of callerTargetPairs()) {
    const entry = `${caller}>${target}=${randomBytes(MIN_KEY_BYTES).toString("base64url")}`;
    entries[caller].push(entry);
    entries[target].push(entry);
  }
  return Object.fromEntries(Object.entries(entries).map(([name, list]) => [name, list.join(",")])) as Record<
    GatewayServiceName,
    string
  >;
}

/** The config field every service declares (required: a service never runs without authentication). */
export function serviceAuthKeysField(self: GatewayServiceName) {
  return {
    env: "GATEWAY_SERVICE_AUTH_KEYS",
    description: `keys of internal gRPC calls ${self} makes or accepts: comma-separated \`caller>target=<base64url 32+ bytes>\`, only the pairs ${self} is part of`,
    secret: true,
    parse: parseServiceAuthKeys(self),
  };
}
