import { describe, expect, it } from "vitest";
import { type Complete, decodeSession, encodeSession } from "../../src/adapters/memory/session-codec.js";
import type { PaymentAttempt, Session } from "../../src/domain/session.js";

const at = (iso: string) => new Date(iso);

// Every member named (Complete): a member added to Session or PaymentAttempt must be set here,
// so this round trip fails if the codec leaves it out.
const settledAttempt: Complete<PaymentAttempt> = {
  id: "pa_1",
  attemptNumber: 1,
  status: "SUCCEEDED",
  acquirerOrderNumber: "000042-1",
  checkoutToken: "tok_A",
  acquirerOrderId: "epg-9",
  formUrl: "https://acquirer.example/pay/9",
  cardBrand: "VISA",
  cardLastFour: "4242",
  cardCountry: "TN",
  failureCode: "card_declined",
  failureMessage: "The card was declined.",
  feeMinor: 1_250n,
  netMinor: 124_250n,
  createdAt: at("2026-11-27T10:00:01.001Z"),
  settledAt: at("2026-11-27T10:00:09.009Z"),
  settledBy: "callback",
  duplicatePayment: true,
  returnedAt: at("2026-11-27T10:05:00.000Z"),
  returnMethod: "reversal",
};

const everyMember: Complete<Session> = {
  id: "ps_every",
  scope: { merchantId: "mer_1", livemode: true },
  merchantReference: 'ref "quoted" \\ and ünïcödé \u2028',
  orderNumber: "000042",
  orderId: "A-1",
  // Beyond 2^53: kept exactly, as text.
  amountMinor: 90_071_992_547_409_930n,
  currency: "TND",
  original: { amountMinor: 45_000n, currency: "EUR", rate: "3.371500" },
  description: "Two books\nand a pen",
  items: [{ name: "Book", quantity: 2, unitPriceMinor: 62_750n, description: "Paperback" }],
  status: "SUCCEEDED",
  buyer: { firstName: "Amel", lastName: "Ben Salah", email: "amel@example.com", phone: "+216 71 000 000" },
  metadataJson: '{"cart":[1,2.50,"x"],"note":"\\u00e9"}',
  returnUrl: "https://shop.example/ok",
  cancelUrl: "https://shop.example/cancel",
  webhookUrl: "https://shop.example/hooks",
  maxAttempts: 5,
  checkoutLinks: [
    { token: "tok_A", createdAt: at("2026-11-27T10:00:00.000Z"), expiresAt: at("2026-11-27T10:30:00.000Z") },
    { token: "tok_B", createdAt: at("2026-11-27T10:20:00.000Z"), expiresAt: at("2026-11-27T10:50:00.000Z") },
  ],
  attempts: [
    settledAttempt,
    {
      ...settledAttempt,
      id: "pa_2",
      attemptNumber: 2,
      status: "FAILED",
      feeMinor: 0n,
      duplicatePayment: false,
    },
  ],
  expiresAt: at("2026-11-28T10:00:00.000Z"),
  completedAt: at("2026-11-27T10:00:09.009Z"),
  createdAt: at("2026-11-27T10:00:00.000Z"),
  updatedAt: at("2026-11-27T10:05:00.000Z"),
  version: 7,
  lastEventSequence: 3,
  linkExpiryDueAt: at("2026-11-27T10:50:00.000Z"),
  reconcileAt: at("2026-11-27T11:00:00.000Z"),
};

const fewestMembers: Session = {
  id: "ps_few",
  scope: { merchantId: "mer_2", livemode: false },
  merchantReference: "r",
  orderNumber: "000043",
  amountMinor: 1n,
  currency: "TND",
  original: { amountMinor: 1n, currency: "TND", rate: "1.000000" },
  items: [],
  status: "CREATED",
  buyer: {},
  maxAttempts: 3,
  checkoutLinks: [],
  attempts: [
    {
      id: "pa_3",
      attemptNumber: 1,
      status: "INITIATED",
      acquirerOrderNumber: "000043-1",
      checkoutToken: "tok_C",
      createdAt: at("2026-11-27T10:00:00.000Z"),
    },
  ],
  expiresAt: at("2026-11-28T10:00:00.000Z"),
  createdAt: at("2026-11-27T10:00:00.000Z"),
  updatedAt: at("2026-11-27T10:00:00.000Z"),
  version: 1,
  lastEventSequence: 0,
};

describe("the in-memory store's session codec", () => {
  it("gives back a session with every member set, exactly: bigints past 2^53, times to the ms, text with quotes and line separators", () => {
    const decoded = decodeSession(encodeSession(everyMember));
    expect(decoded).toStrictEqual(everyMember);
    expect(decoded.amountMinor).toBe(90_071_992_547_409_930n);
    expect(decoded.metadataJson).toBe(everyMember.metadataJson);
  });

  it("gives back a session with only its required members, the others absent, not undefined", () => {
    const decoded = decodeSession(encodeSession(fewestMembers));
    expect(decoded).toStrictEqual(fewestMembers);
    expect(Object.keys(decoded)).not.toContain("orderId");
    expect(Object.keys(decoded.buyer)).toEqual([]);
    expect(Object.keys(decoded.attempts[0]!)).not.toContain("feeMinor");
  });

  it("gives a fresh copy each time: changing one shares nothing with the text or the next copy", () => {
    const text = encodeSession(everyMember);
    const first = decodeSession(text);
    first.items[0]!.name = "changed";
    first.checkoutLinks[0]!.expiresAt.setTime(0);
    first.attempts[0]!.status = "FAILED";
    first.scope.merchantId = "mer_other";
    expect(decodeSession(text)).toStrictEqual(everyMember);
  });

  it("writes about half the bytes of V8's serializer for a fresh session", async () => {
    const { serialize } = await import("node:v8");
    expect(encodeSession(everyMember).length).toBeLessThan(serialize(everyMember).length);
  });
});
