import { isIPv4, isIPv6 } from "node:net";

/** An IP address as its bytes: 4 for IPv4, 16 for IPv6. */
export type IpBytes = Uint8Array;

export interface Cidr {
  bytes: IpBytes;
  prefix: number;
}

function ipv4Bytes(text: string): IpBytes {
  return Uint8Array.from(text.split(".").map(Number));
}

function ipv6Bytes(text: string): IpBytes {
  let address = text.split("%")[0] ?? "";
  // A trailing dotted quad (::ffff:1.2.3.4) stands for the last two groups.
  const lastColon = address.lastIndexOf(":");
  const tail = address.slice(lastColon + 1);
  if (tail.includes(".")) {
    const [a = 0, b = 0, c = 0, d = 0] = ipv4Bytes(tail);
    address = `${address.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", rest] = address.split("::");
  const headGroups = head === "" ? [] : head.split(":");
  const restGroups = rest === undefined || rest === "" ? [] : rest.split(":");
  const zeros = new Array<string>(8 - headGroups.length - restGroups.length).fill("0");
  const groups = rest === undefined ? headGroups : [...headGroups, ...zeros, ...restGroups];
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    const value = Number.parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  });
  return bytes;
}

/** Bytes of an IPv4 or IPv6 address (zone index ignored); undefined when the text is not an IP. */
export function parseIp(text: string): IpBytes | undefined {
  if (isIPv4(text)) return ipv4Bytes(text);
  if (isIPv6(text)) return ipv6Bytes(text);
  return undefined;
}

/** `10.0.0.0/8`, `fc00::/7`, or a bare address (a single host). Throws on anything else. */
export function parseCidr(text: string): Cidr {
  const [address = "", prefixText, ...extra] = text.trim().split("/");
  const bytes = parseIp(address);
  const bits = bytes ? bytes.length * 8 : 0;
  const prefix = prefixText === undefined ? bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!bytes || extra.length > 0 || !(prefix >= 0 && prefix <= bits)) {
    throw new TypeError(`Not a CIDR block: ${JSON.stringify(text)} (expected e.g. 10.0.0.0/8 or fd00::/8)`);
  }
  return { bytes, prefix };
}

export function inCidr(ip: IpBytes, cidr: Cidr): boolean {
  if (ip.length !== cidr.bytes.length) return false;
  const whole = cidr.prefix >> 3;
  for (let i = 0; i < whole; i++) if (ip[i] !== cidr.bytes[i]) return false;
  const rest = cidr.prefix & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((ip[whole] ?? 0) & mask) === ((cidr.bytes[whole] ?? 0) & mask);
}

export function formatIpv4(bytes: IpBytes): string {
  return Array.from(bytes).join(".");
}
