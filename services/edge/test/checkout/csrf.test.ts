import { describe, expect, it } from "vitest";
import {
  parseCsrfSecret,
  parseOriginList,
  resolveCheckoutConfig,
} from "../../src/checkout/checkout-config.js";
import { CsrfTokens } from "../../src/checkout/csrf.js";

const SECRET = "a-test-secret-of-at-least-32-characters!";

describe("CSRF tokens", () => {
  const tokens = new CsrfTokens(SECRET);
  const nonce = CsrfTokens.newNonce();

  it("when the token was minted for this link and nonce, then it verifies", () => {
    expect(tokens.verify("LinkToken123", nonce, tokens.tokenFor("LinkToken123", nonce))).toBe(true);
  });

  it("when the link, the nonce, the key or the token differ, or one is missing, then it does not", () => {
    const token = tokens.tokenFor("LinkToken123", nonce);
    expect(tokens.verify("OtherToken12", nonce, token)).toBe(false);
    expect(tokens.verify("LinkToken123", CsrfTokens.newNonce(), token)).toBe(false);
    expect(new CsrfTokens(`${SECRET}x`).verify("LinkToken123", nonce, token)).toBe(false);
    const tampered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    expect(tokens.verify("LinkToken123", nonce, tampered)).toBe(false);
    expect(tokens.verify("LinkToken123", undefined, token)).toBe(false);
    expect(tokens.verify("LinkToken123", nonce, undefined)).toBe(false);
    expect(tokens.verify("LinkToken123", "short", token)).toBe(false);
  });

  // Computed with `openssl dgst -sha256 -hmac`: the key is the secret's UTF-8 bytes, however
  // the class holds it, so pages already open keep their tokens across a release.
  it("when the secret, link and nonce are fixed, then the token is their HMAC-SHA256, base64url", () => {
    expect(tokens.tokenFor("LinkToken123", "A".repeat(43))).toBe(
      "j8B6FMHKaP3JVvc2GFuIcBNxGsa4L4zDu6V3ZZ5K3pA",
    );
  });

  it("draws a fresh 256-bit nonce each time", () => {
    const nonces = new Set(Array.from({ length: 50 }, () => CsrfTokens.newNonce()));
    expect(nonces.size).toBe(50);
    for (const n of nonces) expect(CsrfTokens.isNonce(n)).toBe(true);
  });

  it("when many nonces are drawn, then each carries 32 bytes of its own and every byte value turns up", () => {
    const nonces = Array.from({ length: 400 }, () => CsrfTokens.newNonce());
    expect(new Set(nonces).size).toBe(400);
    const bytes = nonces.map((n) => Buffer.from(n, "base64url"));
    for (const b of bytes) expect(b.length).toBe(32);
    // 12,800 bytes, about 50 of each value: a fixed or sliced-wrong buffer would miss most values.
    expect(new Set(bytes.flatMap((b) => [...b])).size).toBe(256);
  });
});

describe("checkout configuration", () => {
  it("defaults: the public origin as form-action, Secure cookies only over https, a random CSRF key", () => {
    const plain = resolveCheckoutConfig({ publicUrl: "http://localhost:8080" });
    expect(plain).toMatchObject({
      publicOrigin: "http://localhost:8080",
      secureCookies: false,
      formActionOrigins: ["http://localhost:8080"],
    });
    expect(plain.csrfSecret.length).toBeGreaterThanOrEqual(32);
    expect(resolveCheckoutConfig({ publicUrl: "http://localhost:8080" }).csrfSecret).not.toBe(
      plain.csrfSecret,
    );
    expect(resolveCheckoutConfig({ publicUrl: "https://pay.example.com/base" })).toMatchObject({
      publicOrigin: "https://pay.example.com",
      secureCookies: true,
      formActionOrigins: ["https://pay.example.com"],
    });
    expect(resolveCheckoutConfig(undefined).publicOrigin).toBe("http://localhost:8080");
  });

  it("reads GATEWAY_CHECKOUT_FORM_ACTION_ORIGINS as origins only", () => {
    expect(parseOriginList("https://epg.bank.tn, http://127.0.0.1:50060/,https://epg.bank.tn")).toEqual([
      "https://epg.bank.tn",
      "http://127.0.0.1:50060",
    ]);
    expect(() => parseOriginList("https://epg.bank.tn/pay")).toThrow(/origin only/);
    expect(() => parseOriginList("javascript:alert(1)")).toThrow(/http\(s\)/);
    expect(() => parseOriginList("not a url")).toThrow(/not a URL/);
    expect(() => parseOriginList(" , ")).toThrow(/at least one/);
  });

  it("refuses a short CSRF secret without echoing it", () => {
    expect(() => parseCsrfSecret("short-secret")).toThrow(/at least 32/);
    expect(() => parseCsrfSecret("short-secret")).not.toThrow(/short-secret/);
    expect(() => resolveCheckoutConfig({ publicUrl: "http://x", csrfSecret: "short" })).toThrow(
      /at least 32/,
    );
    expect(parseCsrfSecret(SECRET)).toBe(SECRET);
  });
});
