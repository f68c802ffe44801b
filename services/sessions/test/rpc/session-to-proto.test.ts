import { equals, fromBinary, isMessage, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { AttemptStatus, SessionSchema, SessionStatus } from "@gateway/proto";
import { describe, expect, it } from "vitest";
import type { PaymentAttempt, Session } from "../../src/domain/session.js";
import { sessionToProto } from "../../src/rpc/session-to-proto.js";
import { newScope, SETTINGS, sessionFixture } from "../support/fixtures.js";

const fresh = sessionFixture(
  newScope(true),
  { metadataJson: '{"n":1.50}' },
  new Date("2026-11-27T10:00:00.123Z"),
);

const attempt = (n: number, overrides: Partial<PaymentAttempt> = {}): PaymentAttempt => ({
  id: `pa_${n}`,
  attemptNumber: n,
  status: "FAILED",
  acquirerOrderNumber: `000042-${n}`,
  checkoutToken: "tok",
  createdAt: new Date(`2026-11-27T10:0${n}:00.000Z`),
  ...overrides,
});

const settled: Session = {
  ...fresh,
  status: "SUCCEEDED",
  attempts: [
    attempt(1, { failureCode: "card_declined" }),
    attempt(2, {
      status: "SUCCEEDED",
      cardBrand: "VISA",
      cardLastFour: "4242",
      feeMinor: 1_250n,
      netMinor: 124_250n,
      acquirerOrderId: "epg-9",
    }),
  ],
  completedAt: new Date("2026-11-27T10:02:09.009Z"),
};

describe("sessionToProto", () => {
  it.each([
    ["a fresh session, payable through its link", fresh],
    ["a settled session with attempts", settled],
  ])("when given %s, then it is a message the protobuf runtime reads back unchanged", (_, session) => {
    const message = sessionToProto(session, SETTINGS.publicBaseUrl);
    expect(isMessage(message, SessionSchema)).toBe(true);
    const readBack = fromBinary(SessionSchema, toBinary(SessionSchema, message));
    expect(equals(SessionSchema, message, readBack)).toBe(true);
    // Unset message fields are undefined in the literal and absent once read back: the same to toEqual.
    expect(message).toEqual(readBack);
  });

  it("when a session is settled, then its attempts, amounts and times are on the message", () => {
    const message = sessionToProto(settled, SETTINGS.publicBaseUrl);
    expect(message.status).toBe(SessionStatus.SUCCEEDED);
    expect(message.scope).toEqual(
      expect.objectContaining({ merchantId: fresh.scope.merchantId, livemode: true }),
    );
    expect(message.metadataJson).toBe('{"n":1.50}');
    expect(message.attempts.map((a) => [a.status, a.feeAmount, a.netAmount, a.failureCode])).toEqual([
      [AttemptStatus.FAILED, "", "", "card_declined"],
      [AttemptStatus.SUCCEEDED, "1.250", "124.250", ""],
    ]);
    expect(message.completedAt).toStrictEqual(timestampFromDate(settled.completedAt!));
    expect(message.attempts[1]!.createdAt).toStrictEqual(timestampFromDate(settled.attempts[1]!.createdAt));
  });

  it("when a session's link is current, then its times are the Timestamps timestampFromDate makes, to the millisecond", () => {
    const message = sessionToProto(fresh, SETTINGS.publicBaseUrl);
    expect(message.createdAt).toStrictEqual(timestampFromDate(fresh.createdAt));
    expect(message.createdAt?.nanos).toBe(123_000_000);
    expect(message.expiresAt).toStrictEqual(timestampFromDate(fresh.expiresAt));
    expect(message.checkoutExpiresAt).toStrictEqual(timestampFromDate(fresh.checkoutLinks[0]!.expiresAt));
    expect(message.completedAt).toBeUndefined();
    expect(message.checkoutUrl).toMatch(/^https:\/\/pay\.example\.test\/checkout\//);
  });

  it("when a time is before 1970, then its Timestamp is what timestampFromDate makes", () => {
    const early = new Date("1969-12-31T23:59:59.250Z");
    const message = sessionToProto({ ...fresh, createdAt: early }, SETTINGS.publicBaseUrl);
    expect(message.createdAt).toStrictEqual(timestampFromDate(early));
  });
});
