import { describe, expect, it } from "vitest";
import {
  apiKeyHashesMatch,
  generateApiKey,
  hashApiKey,
  inactiveReason,
  newApiKeyRecord,
  parseApiKey,
} from "../src/domain/api-key.js";

const LOOKUP = "AbCdEfGh1234";
const SECRET = "0123456789abcdefghijABCDEFGHIJkl";

describe("API key format", () => {
  it("when a key is generated, then it is the mode prefix, a 12-character lookup id and a 32-character secret", () => {
    const test = generateApiKey(false);
    const live = generateApiKey(true);
    expect(test.text).toMatch(/^sk_test_[0-9A-Za-z]{44}$/);
    expect(live.text).toMatch(/^sk_live_[0-9A-Za-z]{44}$/);
    expect(test.text.slice(8, 20)).toBe(test.lookupId);
    expect(generateApiKey(false).text).not.toBe(test.text);
  });

  it("when a well-formed key is parsed, then its mode and lookup id come out", () => {
    expect(parseApiKey(`sk_test_${LOOKUP}${SECRET}`)).toEqual({
      livemode: false,
      lookupId: LOOKUP,
      text: `sk_test_${LOOKUP}${SECRET}`,
    });
    expect(parseApiKey(`sk_live_${LOOKUP}${SECRET}`)?.livemode).toBe(true);
  });

  it.each([
    ["empty", ""],
    ["no prefix", `${LOOKUP}${SECRET}`],
    ["publishable prefix", `pk_test_${LOOKUP}${SECRET}`],
    ["unknown mode", `sk_prod_${LOOKUP}${SECRET}`],
    ["one character short", `sk_test_${LOOKUP}${SECRET.slice(1)}`],
    ["one character long", `sk_test_${LOOKUP}${SECRET}x`],
    ["non-base62 character", `sk_test_${LOOKUP}${SECRET.slice(1)}-`],
    ["surrounding space", ` sk_test_${LOOKUP}${SECRET}`],
    ["upper-case prefix", `SK_TEST_${LOOKUP}${SECRET}`],
  ])("when the key has %s, then it is malformed", (_why, text) => {
    expect(parseApiKey(text)).toBeUndefined();
  });

  it("when a record is built, then it keeps a public prefix and a SHA-256 hash, never the key", () => {
    const key = generateApiKey(true);
    const record = newApiKeyRecord({ id: "key_1", merchantId: "mer_1", key, createdAt: new Date(0) });
    expect(record.prefix).toBe(`sk_live_${key.lookupId}`);
    expect(record.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(record.hash).toBe(hashApiKey(key.text));
    expect(JSON.stringify(record)).not.toContain(key.text.slice(20));
  });
});

describe("API key hash comparison", () => {
  const hash = hashApiKey(`sk_test_${LOOKUP}${SECRET}`);

  it("when the hashes are equal, then they match", () => {
    expect(apiKeyHashesMatch(hash, hashApiKey(`sk_test_${LOOKUP}${SECRET}`))).toBe(true);
  });

  it("when the keys differ in their last character, then the hashes do not match", () => {
    expect(apiKeyHashesMatch(hash, hashApiKey(`sk_test_${LOOKUP}${SECRET.slice(0, -1)}m`))).toBe(false);
  });

  it("when a hash is empty or of another length, then it does not match (and does not throw)", () => {
    expect(apiKeyHashesMatch(hash, "")).toBe(false);
    expect(apiKeyHashesMatch("", "")).toBe(false);
    expect(apiKeyHashesMatch(hash, hash.slice(0, 62))).toBe(false);
  });
});

describe("API key activity", () => {
  const key = newApiKeyRecord({
    id: "key_1",
    merchantId: "mer_1",
    key: generateApiKey(false),
    createdAt: new Date(0),
  });

  it("when the key is neither revoked nor expired, then it is active", () => {
    expect(inactiveReason(key, new Date(1000))).toBeUndefined();
    expect(inactiveReason({ ...key, expiresAt: new Date(2000) }, new Date(1999))).toBeUndefined();
  });

  it("when the expiry time is reached, then the key is expired", () => {
    expect(inactiveReason({ ...key, expiresAt: new Date(2000) }, new Date(2000))).toBe("expired");
  });

  it("when the key is revoked, then revocation wins over expiry", () => {
    expect(
      inactiveReason({ ...key, revokedAt: new Date(500), expiresAt: new Date(600) }, new Date(1000)),
    ).toBe("revoked");
  });
});
