import { describe, expect, it } from "vitest";
import { assertAddressPolicy, isForbiddenAddress } from "../../src/adapters/http/index.js";

describe("isForbiddenAddress", () => {
  it.each([
    ["IPv4 loopback", "127.0.0.1"],
    ["IPv4 loopback, end of block", "127.255.255.254"],
    ["private 10/8", "10.0.0.1"],
    ["private 10/8, last", "10.255.255.255"],
    ["private 172.16/12, first", "172.16.0.1"],
    ["private 172.16/12, last", "172.31.255.255"],
    ["private 192.168/16", "192.168.1.10"],
    ["link-local / cloud metadata", "169.254.169.254"],
    ["carrier-grade NAT, first", "100.64.0.1"],
    ["carrier-grade NAT, last", "100.127.255.255"],
    ["this network", "0.0.0.0"],
    ["this network block", "0.1.2.3"],
    ["multicast", "224.0.0.1"],
    ["multicast, last", "239.255.255.255"],
    ["reserved 240/4", "240.0.0.1"],
    ["broadcast", "255.255.255.255"],
    ["documentation TEST-NET-1", "192.0.2.1"],
    ["documentation TEST-NET-3", "203.0.113.7"],
    ["benchmarking", "198.18.0.1"],
    ["IETF protocol assignments", "192.0.0.8"],
    ["IPv6 unspecified", "::"],
    ["IPv6 loopback", "::1"],
    ["IPv6 loopback, long form", "0:0:0:0:0:0:0:1"],
    ["IPv6 link-local", "fe80::1"],
    ["IPv6 link-local with zone", "fe80::1%eth0"],
    ["IPv6 link-local, end of fe80::/10", "febf::1"],
    ["IPv6 unique local fc00::/7", "fc00::1"],
    ["IPv6 unique local fd…", "fd12:3456:789a::1"],
    ["IPv6 multicast", "ff02::1"],
    ["IPv6 documentation", "2001:db8::1"],
    ["IPv6 documentation 3fff::/20", "3fff::1"],
    ["Teredo", "2001:0:4136:e378:8000:63bf:3fff:fdd2"],
    ["IPv4-mapped loopback, dotted", "::ffff:127.0.0.1"],
    ["IPv4-mapped loopback, hex", "::ffff:7f00:1"],
    ["IPv4-mapped private", "::ffff:10.0.0.1"],
    ["IPv4-mapped metadata", "::ffff:169.254.169.254"],
    ["IPv4-compatible (deprecated)", "::127.0.0.1"],
    ["NAT64 to loopback", "64:ff9b::127.0.0.1"],
    ["NAT64 to private, hex", "64:ff9b::a00:1"],
    ["local-use NAT64", "64:ff9b:1::a00:1"],
    ["6to4 of a private address", "2002:0a00:0001::1"],
    ["not an address", "example.com"],
    ["empty", ""],
    ["IPv4 with leading zeros (ambiguous octal)", "010.0.0.1"],
  ])("when the address is %s (%s), then it is forbidden", (_name, ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    ["public IPv4", "8.8.8.8"],
    ["public IPv4 next to 10/8", "11.0.0.1"],
    ["public IPv4 just below 172.16/12", "172.15.255.255"],
    ["public IPv4 just above 172.16/12", "172.32.0.1"],
    ["public IPv4 just above CGNAT", "100.128.0.1"],
    ["public IPv4 next to 192.168/16", "192.169.0.1"],
    ["public IPv4, top of unicast", "223.255.255.255"],
    ["public IPv6", "2606:4700::1"],
    ["public IPv6 with zeros compressed in the middle", "2a00:1450:4007:80e::200e"],
    ["IPv4-mapped public", "::ffff:8.8.8.8"],
    ["NAT64 to a public address", "64:ff9b::8.8.8.8"],
    ["6to4 of a public address", "2002:0808:0808::1"],
  ])("when the address is %s (%s), then it is allowed", (_name, ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });

  it("when a private network is allow-listed, then its addresses are allowed and others stay forbidden", () => {
    const allow = ["10.20.0.0/16", "fd00:1::/32"];
    expect(isForbiddenAddress("10.20.3.4", allow)).toBe(false);
    expect(isForbiddenAddress("10.21.0.1", allow)).toBe(true);
    expect(isForbiddenAddress("fd00:1:2::3", allow)).toBe(false);
    expect(isForbiddenAddress("fd00:2::1", allow)).toBe(true);
    expect(isForbiddenAddress("127.0.0.1", allow)).toBe(true);
  });

  it("when loopback is allow-listed, then its IPv4-mapped form is allowed too", () => {
    expect(isForbiddenAddress("127.0.0.1", ["127.0.0.0/8"])).toBe(false);
    expect(isForbiddenAddress("::ffff:127.0.0.1", ["127.0.0.0/8"])).toBe(false);
    expect(isForbiddenAddress("::1", ["127.0.0.0/8"])).toBe(true);
  });

  it("when a single host is allow-listed without a prefix, then only that host is allowed", () => {
    expect(isForbiddenAddress("192.168.1.5", ["192.168.1.5"])).toBe(false);
    expect(isForbiddenAddress("192.168.1.6", ["192.168.1.5"])).toBe(true);
  });

  it("when a prefix is not on a byte boundary, then the mask is exact", () => {
    expect(isForbiddenAddress("10.0.0.7", ["10.0.0.4/30"])).toBe(false);
    expect(isForbiddenAddress("10.0.0.8", ["10.0.0.4/30"])).toBe(true);
  });
});

describe("assertAddressPolicy", () => {
  it.each([["10.0.0.0/33"], ["10.0.0/8"], ["example.com/8"], ["::/129"], ["10.0.0.0/8/1"], ["10.0.0.0/x"]])(
    "when an allow-listed CIDR is invalid (%s), then it throws naming it",
    (cidr) => {
      expect(() => assertAddressPolicy({ allowPrivate: false, allowCidrs: [cidr] })).toThrow(cidr);
    },
  );

  it("when every CIDR is valid, then it accepts the policy", () => {
    expect(() =>
      assertAddressPolicy({ allowPrivate: false, allowCidrs: ["10.0.0.0/8", "fd00::/8", "::1"] }),
    ).not.toThrow();
  });
});
