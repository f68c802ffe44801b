import { describe, expect, it } from "vitest";
import { checkHttpUrl } from "../../src/validation/http-url.js";

describe("checkHttpUrl, the one validator of merchant URLs", () => {
  it.each([
    "https://shop.example/ok",
    "http://localhost:3000/return?order=1",
    "https://Shop.Example:8443/cancel?x=1#top",
    "https://127.0.0.1/ok",
    "https://[::1]:8080/ok",
    "https://xn--mgbaa0b8b.example/ok",
    "https://مثال.example/ok",
    "https://shop.example./ok",
    "https://\u{1d538}shop.example/ok",
  ])("accepts %j", (url) => {
    expect(checkHttpUrl(url)).toMatchObject({ ok: true });
  });

  it.each([
    ["a `;` in the host (CSP break-out)", "https://x;sandbox/"],
    ["a `,` in the host", "https://x,y.example/"],
    ["a quote in the host", "https://x'y.example/"],
    ["a `%` in the host", "https://x%41.example/"],
    ["no slashes after the scheme", "http:evil.example"],
    ["backslashes", "https:\\\\evil.example"],
    ["a backslash in the path", "https://shop.example\\@evil.example/"],
    ["user info", "https://user@shop.example/"],
    ["an empty user info", "https://@shop.example/"],
    ["a password", "https://user:pw@shop.example/"],
    ["a right-to-left override", "https://shop.example/\u202eexe.pdf"],
    ["a left-to-right mark", "https://shop.example\u200e/"],
    ["a control character", "https://shop.example/\u0007"],
    ["a C1 control", "https://shop.example/\u0085"],
    ["a space", "https://shop.example/a b"],
    ["another scheme", "ftp://shop.example/"],
    ["javascript:", "javascript:alert(1)"],
    ["a relative URL", "/checkout/return"],
    ["no host", "https:///path"],
    ["an IPv4 shorthand", "https://127.1/"],
    ["a hex IPv4", "https://0x7f.0.0.1/"],
    ["an IPv4 shorthand with a trailing dot", "https://127.1./"],
    ["an IPv4 address with a trailing dot", "https://127.0.0.1./"],
    ["a numeric last label", "https://shop.42/"],
    ["a label starting with a hyphen", "https://-shop.example/"],
    ["an underscore", "https://shop_1.example/"],
    ["a port out of range", "https://shop.example:65536/"],
    ["a non-numeric port", "https://shop.example:http/"],
    ["an unclosed IPv6 literal", "https://[::1/"],
    ["too long", `https://shop.example/${"a".repeat(2048)}`],
  ])("refuses %s: %j", (_why, url) => {
    expect(checkHttpUrl(url)).toMatchObject({ ok: false, message: expect.any(String) });
  });

  it("refuses a fragment only where asked to", () => {
    expect(checkHttpUrl("https://shop.example/hooks#f")).toMatchObject({ ok: true });
    expect(checkHttpUrl("https://shop.example/hooks#f", { forbidFragment: true })).toEqual({
      ok: false,
      message: "must not contain a #fragment.",
    });
  });

  it("refuses plain http only where asked to", () => {
    expect(checkHttpUrl("http://shop.example/ok")).toMatchObject({ ok: true });
    expect(checkHttpUrl("http://shop.example/ok", { httpsOnly: true })).toEqual({
      ok: false,
      message: "must use https:// in live mode.",
    });
    expect(checkHttpUrl("HTTPS://shop.example/ok", { httpsOnly: true })).toMatchObject({ ok: true });
  });

  describe("URLs that passed are remembered, per rule set and boundedly", () => {
    it("gives the same frozen answer for the same URL, with the parser's serialisation", () => {
      const first = checkHttpUrl("https://Shop.Example/ok?order=1");
      expect(first).toEqual({ ok: true, href: "https://shop.example/ok?order=1" });
      expect(Object.isFrozen(first)).toBe(true);
      expect(checkHttpUrl("https://Shop.Example/ok?order=1")).toBe(first);
    });

    it("never answers one rule set from another's memory, in either order", () => {
      const url = "http://remembered.example/hooks#top";
      expect(checkHttpUrl(url)).toMatchObject({ ok: true });
      expect(checkHttpUrl(url, { httpsOnly: true })).toEqual({
        ok: false,
        message: "must use https:// in live mode.",
      });
      expect(checkHttpUrl(url, { forbidFragment: true })).toEqual({
        ok: false,
        message: "must not contain a #fragment.",
      });
      const https = "https://remembered.example/hooks";
      expect(checkHttpUrl(https, { httpsOnly: true, forbidFragment: true })).toMatchObject({ ok: true });
      expect(checkHttpUrl(https)).toMatchObject({ ok: true });
    });

    it("does not remember a refusal: a refused URL is checked again each time", () => {
      const refused = checkHttpUrl("https://bad host.example/");
      expect(refused.ok).toBe(false);
      expect(checkHttpUrl("https://bad host.example/")).not.toBe(refused);
    });

    it("forgets the oldest URL once a thousand others have passed, and still answers it rightly", () => {
      const oldest = checkHttpUrl("https://oldest.example/ok");
      for (let i = 0; i < 500; i++) checkHttpUrl(`https://shop${i}.example/ok`);
      expect(checkHttpUrl("https://oldest.example/ok")).toBe(oldest);
      for (let i = 0; i < 1100; i++) checkHttpUrl(`https://other${i}.example/ok`);
      const again = checkHttpUrl("https://oldest.example/ok");
      expect(again).not.toBe(oldest);
      expect(again).toEqual(oldest);
    });
  });
});
