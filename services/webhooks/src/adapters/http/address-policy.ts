import { type Cidr, formatIpv4, type IpBytes, inCidr, parseCidr, parseIp } from "./ip-address.js";

/**
 * Where webhooks may go. Outside test/development configuration `allowPrivate` is false and only
 * publicly routable addresses are reached; `allowCidrs` opens chosen private networks again
 * (e.g. a merchant inside the same VPC).
 */
export interface AddressPolicy {
  allowPrivate: boolean;
  allowCidrs: string[];
}

const cidrs = (list: string[]): Cidr[] => list.map(parseCidr);

// IANA special-purpose IPv4 blocks that are not globally reachable.
const FORBIDDEN_V4 = cidrs([
  "0.0.0.0/8", // "this network", unspecified
  "10.0.0.0/8", // private
  "100.64.0.0/10", // carrier-grade NAT
  "127.0.0.0/8", // loopback
  "169.254.0.0/16", // link-local, cloud metadata services
  "172.16.0.0/12", // private
  "192.0.0.0/24", // IETF protocol assignments
  "192.0.2.0/24", // documentation
  "192.88.99.0/24", // 6to4 relay anycast (deprecated)
  "192.168.0.0/16", // private
  "198.18.0.0/15", // benchmarking
  "198.51.100.0/24", // documentation
  "203.0.113.0/24", // documentation
  "224.0.0.0/4", // multicast
  "240.0.0.0/4", // reserved, limited broadcast 255.255.255.255
]);

// IPv6 forms that carry an IPv4 address: judged by the IPv4 address they lead to.
const IPV4_MAPPED = parseCidr("::ffff:0:0/96");
const NAT64 = parseCidr("64:ff9b::/96");
const SIX_TO_FOUR = parseCidr("2002::/16");

// Only global unicast (2000::/3) is reachable; everything outside it (::, ::1, IPv4-compatible,
// fc00::/7 ULA, fe80::/10 link-local, ff00::/8 multicast, 64:ff9b:1::/48 local NAT64, 100::/64
// discard…) is refused, and so are these blocks inside it.
const GLOBAL_UNICAST = parseCidr("2000::/3");
const FORBIDDEN_V6_IN_GLOBAL = cidrs([
  "2001::/23", // IETF protocol assignments: Teredo, benchmarking, ORCHID
  "2001:db8::/32", // documentation
  "3fff::/20", // documentation (RFC 9637)
]);

/** The IPv4 address an address really leads to: itself, or the one embedded in an IPv6 form. */
function effectiveIpv4(ip: IpBytes): IpBytes | undefined {
  if (ip.length === 4) return ip;
  if (inCidr(ip, IPV4_MAPPED) || inCidr(ip, NAT64)) return ip.slice(12, 16);
  if (inCidr(ip, SIX_TO_FOUR)) return ip.slice(2, 6);
  return undefined;
}

/**
 * Whether a webhook must not be delivered to this address: loopback, private, link-local, CGNAT,
 * multicast, reserved, documentation, and IPv6 forms that lead to such an IPv4 address. Text
 * that is not an IP address is forbidden too (fail closed). `allowCidrs` wins over the rules.
 */
export function isForbiddenAddress(ip: string, allowCidrs: string[] = []): boolean {
  const bytes = parseIp(ip);
  if (!bytes) return true;
  const v4 = effectiveIpv4(bytes);
  const allowed = cidrs(allowCidrs).some((c) => inCidr(bytes, c) || (v4 !== undefined && inCidr(v4, c)));
  if (allowed) return false;
  if (v4) return FORBIDDEN_V4.some((c) => inCidr(v4, c));
  if (!inCidr(bytes, GLOBAL_UNICAST)) return true;
  return FORBIDDEN_V6_IN_GLOBAL.some((c) => inCidr(bytes, c));
}

/** Checks an allow-list once at start, so a typo in configuration stops the process clearly. */
export function assertAddressPolicy(policy: AddressPolicy): void {
  if (typeof policy.allowPrivate !== "boolean") throw new TypeError("allowPrivate must be true or false");
  cidrs(policy.allowCidrs);
}

/** The address as shown in an error message: the IPv4 address for IPv4-mapped forms. */
export function displayAddress(ip: string): string {
  const bytes = parseIp(ip);
  return bytes && bytes.length === 16 && inCidr(bytes, IPV4_MAPPED) ? formatIpv4(bytes.slice(12, 16)) : ip;
}
