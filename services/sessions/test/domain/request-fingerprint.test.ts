import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeSession, encodeSession } from "../../src/adapters/memory/session-codec.js";
import { canonicalJson } from "../../src/domain/canonical-json.js";
import { newSession } from "../../src/domain/new-session.js";
import { requestFingerprint } from "../../src/domain/request-fingerprint.js";
import type { ValidCreateSession } from "../../src/domain/validation/create-session-input.js";
import { LIFETIMES, newScope } from "../support/fixtures.js";

/**
 * The fingerprint as stored sessions hold it: sha256 of JSON.stringify over [name, value] pairs.
 * A stored session must still match a repeat of its create, so the text may never change.
 */
function storedFormOf(req: ValidCreateSession): string {
  const pairs = [
    ["amount", req.original.amountMinor.toString()],
    ["currency", req.original.currency],
    ["order_id", req.orderId ?? null],
    ["description", req.description ?? null],
    [
      "items",
      req.items.map((item) => [
        item.name,
        item.quantity,
        item.unitPriceMinor.toString(),
        item.description ?? null,
      ]),
    ],
    ["buyer_first_name", req.buyer.firstName ?? null],
    ["buyer_last_name", req.buyer.lastName ?? null],
    ["buyer_email", req.buyer.email ?? null],
    ["buyer_phone", req.buyer.phone ?? null],
    ["metadata", req.metadataJson === undefined ? null : canonicalJson(req.metadataJson)],
    ["return_url", req.returnUrl ?? null],
    ["cancel_url", req.cancelUrl ?? null],
    ["webhook_url", req.webhookUrl ?? null],
    ["max_attempts", req.maxAttempts],
  ];
  return createHash("sha256").update(JSON.stringify(pairs)).digest("hex");
}

const minimal: ValidCreateSession = {
  merchantReference: "ref-1",
  amountMinor: 125_500n,
  original: { amountMinor: 125_500n, currency: "TND", rate: "1" },
  items: [],
  buyer: {},
  maxAttempts: 3,
};

/** Text that JSON must escape: quotes, backslashes, controls, a lone surrogate, U+2028, non-Latin. */
const AWKWARD = 'a "quoted" \\ back\nslash\t\u0001 \ud800 \u2028 é 漢字 😀';

const full: ValidCreateSession = {
  merchantReference: "ref-2",
  amountMinor: 425_680n,
  original: { amountMinor: 125_200n, currency: "EUR", rate: "3.400000" },
  orderId: `A-1 ${AWKWARD}`,
  description: AWKWARD,
  items: [
    { name: AWKWARD, quantity: 2, unitPriceMinor: 62_600n, description: "Paperback" },
    { name: "Pen", quantity: 1, unitPriceMinor: 0n },
  ],
  buyer: { firstName: "Zoé", lastName: AWKWARD, email: "buyer@example.com", phone: "+216 20 123 456" },
  metadataJson: ' { "b": 1.50, "a": ["x", {"z": null}], "q": "\\"" } ',
  returnUrl: "https://shop.example/ok?x=%22",
  cancelUrl: "https://shop.example/cancel",
  webhookUrl: "https://shop.example/hooks",
  maxAttempts: 10,
};

describe("requestFingerprint", () => {
  it.each([
    ["only its required fields", minimal],
    ["every field, with text JSON must escape", full],
    ["empty texts, which are not absent", { ...minimal, orderId: "", description: "", buyer: { email: "" } }],
  ])("when a request has %s, then it hashes the same text as stored fingerprints", (_, req) => {
    expect(requestFingerprint(req)).toBe(storedFormOf(req));
  });

  it("when any one counted field changes, then the fingerprint changes, and the rate alone does not", () => {
    const changed: ValidCreateSession[] = [
      { ...full, original: { ...full.original, amountMinor: 125_201n } },
      { ...full, original: { ...full.original, currency: "USD" } },
      { ...full, orderId: undefined },
      { ...full, description: "" },
      { ...full, items: full.items.slice(1) },
      { ...full, items: [{ ...full.items[0]!, quantity: 3 }, full.items[1]!] },
      { ...full, items: [{ ...full.items[0]!, description: undefined }, full.items[1]!] },
      { ...full, buyer: { ...full.buyer, phone: undefined } },
      { ...full, metadataJson: '{"b":1.5,"a":["x",{"z":false}],"q":"\\""}' },
      { ...full, returnUrl: "https://shop.example/ok" },
      { ...full, cancelUrl: undefined },
      { ...full, webhookUrl: "https://shop.example/other" },
      { ...full, maxAttempts: 9 },
    ];
    const fingerprints = new Set(changed.map(requestFingerprint));
    expect(fingerprints.size).toBe(changed.length);
    expect(fingerprints.has(requestFingerprint(full))).toBe(false);
    const otherRate: ValidCreateSession = {
      ...full,
      original: { ...full.original, rate: "3.5" },
      amountMinor: 1n,
    };
    expect(requestFingerprint(otherRate)).toBe(requestFingerprint(full));
  });

  it.each([
    ["only its required fields", minimal],
    ["every field", full],
  ])(
    "when a session is stored for a request with %s, then the session's fingerprint is the request's",
    (_, req) => {
      const stored = newSession(newScope(), req, new Date("2026-11-27T10:00:00.000Z"), LIFETIMES);
      expect(requestFingerprint(stored)).toBe(requestFingerprint(req));
      // As a store gives it back: a copy, sharing nothing with the request.
      expect(requestFingerprint(decodeSession(encodeSession(stored)))).toBe(storedFormOf(req));
    },
  );

  it("when metadata differs only in spelling, then the fingerprint is the same", () => {
    const respelled = { ...full, metadataJson: '{"q":"\\u0022","a":["x",{"z":null}],"b":15e-1}' };
    expect(requestFingerprint(respelled)).toBe(requestFingerprint(full));
  });
});
