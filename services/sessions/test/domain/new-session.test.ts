import { describe, expect, it } from "vitest";
import { checkoutUrl, mintCheckoutLink } from "../../src/domain/checkout-link.js";
import { newSession } from "../../src/domain/new-session.js";
import { newOrderNumber, ORDER_NUMBER_PATTERN } from "../../src/domain/order-number.js";
import { requestFingerprint } from "../../src/domain/request-fingerprint.js";
import { currentCheckoutLink } from "../../src/domain/session.js";
import type { CreateSessionInput } from "../../src/domain/validation/create-session-input.js";
import { validateCreateSession } from "../../src/domain/validation/validate-create-session.js";
import { createInput, LIFETIMES, newScope } from "../support/fixtures.js";

const now = new Date(Date.UTC(2026, 0, 1, 12));

function valid(overrides: Parameters<typeof createInput>[1] = {}) {
  const result = validateCreateSession(
    createInput(newScope(), { merchantReference: "ref-1", ...overrides }),
    "3.400000",
  );
  if (!result.ok) throw new Error("invalid");
  return result.value;
}

describe("order numbers", () => {
  it("are PG- and six characters without 0, O, 1 or I", () => {
    for (let i = 0; i < 2000; i++) expect(newOrderNumber()).toMatch(ORDER_NUMBER_PATTERN);
  });

  it("map each random byte to one of the 32 characters (no modulo bias)", () => {
    const bytes = Uint8Array.from({ length: 6 }, (_, i) => i * 31);
    expect(newOrderNumber(() => bytes)).toBe("PG-2ZYXWV");
  });
});

describe("a new session", () => {
  it("is CREATED with a ps_ id, lifetimes from now, one checkout link and no attempts", () => {
    const s = newSession(newScope(), valid(), now, LIFETIMES);
    expect(s.id).toMatch(/^ps_[0-9A-Za-z]{24}$/);
    expect(s.status).toBe("CREATED");
    expect(s.currency).toBe("TND");
    expect(s.expiresAt).toEqual(new Date(now.getTime() + LIFETIMES.sessionLifetimeMs));
    expect(s.checkoutLinks).toHaveLength(1);
    expect(s.checkoutLinks[0]!.token).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(s.checkoutLinks[0]!.expiresAt).toEqual(new Date(now.getTime() + LIFETIMES.checkoutLinkLifetimeMs));
    expect(s.attempts).toEqual([]);
    expect(s.version).toBe(1);
    expect(s.completedAt).toBeUndefined();
    expect(currentCheckoutLink(s)).toBe(s.checkoutLinks[0]);
  });

  it("draws new generated values each time", () => {
    const request = valid();
    const a = newSession(newScope(), request, now, LIFETIMES);
    const b = newSession(newScope(), request, now, LIFETIMES);
    expect(a.id).not.toBe(b.id);
    expect(a.checkoutLinks[0]!.token).not.toBe(b.checkoutLinks[0]!.token);
  });

  it("has no checkout link once it can no longer be paid", () => {
    const s = newSession(newScope(), valid(), now, LIFETIMES);
    for (const status of ["SUCCEEDED", "FAILED", "EXPIRED", "CANCELED"] as const)
      expect(currentCheckoutLink({ ...s, status })).toBeUndefined();
    for (const status of ["CREATED", "PENDING", "PROCESSING"] as const)
      expect(currentCheckoutLink({ ...s, status })).toBeDefined();
  });
});

describe("checkout links", () => {
  it("never outlive the session", () => {
    const sessionEnd = new Date(now.getTime() + 60_000);
    expect(mintCheckoutLink(now, 30 * 60_000, sessionEnd).expiresAt).toEqual(sessionEnd);
  });

  it("hang off the public base address", () => {
    expect(checkoutUrl("https://pay.example.com/", "abc")).toBe("https://pay.example.com/checkout/abc");
    expect(checkoutUrl("http://localhost:8080", "abc")).toBe("http://localhost:8080/checkout/abc");
  });
});

describe("request fingerprints", () => {
  it("are equal for the same request and ignore the exchange rate", () => {
    const input = createInput(newScope(), { merchantReference: "r", amount: "10.00", currency: "EUR" });
    const at34 = validateCreateSession(input, "3.400000");
    const at35 = validateCreateSession(input, "3.500000");
    if (!at34.ok || !at35.ok) throw new Error("invalid");
    expect(requestFingerprint(at34.value)).toBe(requestFingerprint(at35.value));
  });

  const changes: [string, Partial<CreateSessionInput>][] = [
    ["amount", { amount: "125.501" }],
    ["currency", { amount: "125.50", currency: "EUR" }],
    ["order_id", { orderId: "A-1" }],
    ["description", { description: "d" }],
    ["items", { items: [{ name: "Mug", quantity: 1, unitPrice: "1.000" }] }],
    ["buyer_first_name", { buyerFirstName: "A" }],
    ["buyer_last_name", { buyerLastName: "B" }],
    ["buyer_email", { buyerEmail: "a@b.tn" }],
    ["buyer_phone", { buyerPhone: "+21671000000" }],
    ["metadata", { metadataJson: "{}" }],
    ["return_url", { returnUrl: "https://a.tn/r" }],
    ["cancel_url", { cancelUrl: "https://a.tn/c" }],
    ["webhook_url", { webhookUrl: "https://a.tn/w" }],
    ["max_attempts", { maxAttempts: 4 }],
  ];
  it.each(changes)("differ when %s differs", (_field, overrides) => {
    expect(requestFingerprint(valid(overrides))).not.toBe(requestFingerprint(valid()));
  });

  it("treat an explicit default like an absent field", () => {
    expect(requestFingerprint(valid({ currency: "TND", maxAttempts: 3 }))).toBe(requestFingerprint(valid()));
  });
});
