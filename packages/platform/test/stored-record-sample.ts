/** A record with every kind of member the stores keep: what copy and encoding tests round-trip. */
export function storedRecordSample() {
  return {
    id: "ps_1",
    amountMinor: 12_345n,
    livemode: false,
    nothing: null,
    absent: undefined,
    scope: { merchantId: "mer_1" },
    items: [{ name: "Livre – édition spéciale ✓", quantity: 2 }],
    expiresAt: new Date("2026-11-26T00:00:00.000Z"),
    digest: new Uint8Array([0, 1, 254, 255]),
  };
}
