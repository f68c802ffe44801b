import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import type { LookupFunction } from "node:net";
import {
  type AddressPolicy,
  assertAddressPolicy,
  displayAddress,
  isForbiddenAddress,
} from "./address-policy.js";

/** Resolves a host name to every address (dns.lookup with `all: true`). */
export type ResolveAll = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolve: ResolveAll = (hostname, options, callback) => dnsLookup(hostname, options, callback);

export class ForbiddenAddressError extends Error {
  readonly code = "ERR_WEBHOOK_FORBIDDEN_ADDRESS";

  constructor(readonly address: string) {
    super(`Refused to deliver to a private or reserved address (${displayAddress(address)})`);
    this.name = "ForbiddenAddressError";
  }
}

/**
 * A `lookup` for the HTTP agents: the address checked is the address connected to, because the
 * socket connects to what this function returns (no second resolution a rebinding DNS server could
 * answer differently). A host with ANY forbidden address is refused, rather than filtered, so a
 * name that points at an internal service is never half-trusted.
 */
export function guardedLookup(policy: AddressPolicy, resolve: ResolveAll = systemResolve): LookupFunction {
  assertAddressPolicy(policy);
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      const empty = options.all ? [] : "";
      if (err) return callback(err, empty);
      if (addresses.length === 0) {
        return callback(
          Object.assign(new Error(`No address found for ${hostname}`), { code: "ENOTFOUND" }),
          empty,
        );
      }
      if (!policy.allowPrivate) {
        const forbidden = addresses.find((a) => isForbiddenAddress(a.address, policy.allowCidrs));
        if (forbidden) return callback(new ForbiddenAddressError(forbidden.address), empty);
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses as [LookupAddress];
      callback(null, first.address, first.family);
    });
  };
}
