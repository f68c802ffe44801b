import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import {
  buildSignatureHeader,
  generateWebhookSecret,
  signPayload,
  standardWebhookSignature,
} from "../src/index.js";
import { STANDARD_EXAMPLE } from "./fixtures/standard-webhooks-example.js";

// Computed outside this code, with openssl:
//   printf '%s' '1700000000.{"id":"evt_1","event":"session.succeeded"}' \
//     | openssl dgst -sha256 -hmac 'whsec_test_secret'
const KNOWN = {
  secret: "whsec_test_secret",
  timestamp: 1700000000,
  body: '{"id":"evt_1","event":"session.succeeded"}',
  v1: "ece0734e592b71cf70eff8adfadefe4bdbbf00981b4005ea17b0fe0d475c1f2d",
};

// The public example of the Standard Webhooks specification (and of its reference libraries).
const STANDARD = STANDARD_EXAMPLE;

describe("generateWebhookSecret", () => {
  it("when generated, then it is whsec_ followed by the base64 of 32 random bytes", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });
});

describe("signPayload", () => {
  it("when signing the known vector, then it equals openssl's HMAC keyed with the whole secret", () => {
    expect(signPayload(KNOWN)).toBe(KNOWN.v1);
  });

  it("when the body is given as bytes instead of text, then the signature is the same", () => {
    const asBuffer = signPayload({ ...KNOWN, body: Buffer.from(KNOWN.body) });
    const asView = signPayload({ ...KNOWN, body: new TextEncoder().encode(KNOWN.body) });
    expect(asBuffer).toBe(KNOWN.v1);
    expect(asView).toBe(KNOWN.v1);
  });

  it("when the body is a slice of a larger buffer, then only the slice is signed", () => {
    const big = Buffer.from(`xx${KNOWN.body}yy`);
    const slice = new Uint8Array(big.buffer, big.byteOffset + 2, Buffer.byteLength(KNOWN.body));
    expect(signPayload({ ...KNOWN, body: slice })).toBe(KNOWN.v1);
  });

  it("when the body is not valid UTF-8, then its bytes are still signed as they are", () => {
    const a = signPayload({ ...KNOWN, body: Uint8Array.of(0xff, 0xfe) });
    const b = signPayload({ ...KNOWN, body: Uint8Array.of(0xff, 0xfd) });
    expect(a).not.toBe(b);
  });

  it.each([
    ["an empty secret", { ...KNOWN, secret: "" }],
    ["a fractional timestamp", { ...KNOWN, timestamp: 1.5 }],
    ["a negative timestamp", { ...KNOWN, timestamp: -1 }],
  ])("when given %s, then it refuses with a TypeError", (_name, input) => {
    expect(() => signPayload(input)).toThrow(TypeError);
  });
});

describe("buildSignatureHeader", () => {
  it("when one secret, then the header is t=<timestamp>,v1=<hex>", () => {
    expect(buildSignatureHeader({ ...KNOWN, secrets: [KNOWN.secret] })).toBe(`t=1700000000,v1=${KNOWN.v1}`);
  });

  it("when rotating, then the header carries the new signature first and the old one second", () => {
    const header = buildSignatureHeader({ ...KNOWN, secrets: ["whsec_new", KNOWN.secret] });
    const newSig = signPayload({ ...KNOWN, secret: "whsec_new" });
    expect(header).toBe(`t=1700000000,v1=${newSig},v1=${KNOWN.v1}`);
  });

  it("when no secret is given, then it refuses", () => {
    expect(() => buildSignatureHeader({ ...KNOWN, secrets: [] })).toThrow(TypeError);
  });
});

describe("standardWebhookSignature", () => {
  it("when signing the Standard Webhooks public example, then it reproduces the published signature", () => {
    expect(standardWebhookSignature({ ...STANDARD, secrets: [STANDARD.secret] })).toBe(STANDARD.signature);
  });

  it("when rotating, then there is one space-separated v1 entry per secret", () => {
    const other = generateWebhookSecret();
    const header = standardWebhookSignature({ ...STANDARD, secrets: [other, STANDARD.secret] });
    const entries = header.split(" ");
    expect(entries).toHaveLength(2);
    expect(entries[1]).toBe(STANDARD.signature);
    expect(entries[0]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it("when the secret is not base64 after whsec_, then it refuses", () => {
    expect(() => standardWebhookSignature({ ...STANDARD, secrets: ["whsec_not base64!"] })).toThrow(
      TypeError,
    );
  });
});
