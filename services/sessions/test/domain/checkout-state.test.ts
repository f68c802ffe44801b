import { describe, expect, it } from "vitest";
import { cardPageSeconds } from "../../src/app/start-payment.js";
import { checkoutStateOf } from "../../src/domain/checkout-state.js";
import { newScope, sessionFixture } from "../support/fixtures.js";

const MINUTE = 60_000;

describe("the card page window", () => {
  const session = sessionFixture(newScope());
  const link = session.checkoutLinks[0]!;
  const at = (ms: number) => new Date(session.createdAt.getTime() + ms);

  it("when the link has 30 minutes left, then the buyer gets the 20 minute cap", () => {
    expect(cardPageSeconds(link, session, at(0))).toBe(1200);
  });

  it("when the link has 10 minutes left, then the card page closes with it", () => {
    expect(cardPageSeconds(link, session, at(20 * MINUTE))).toBe(600);
  });

  it("when the link is about to end, then the window is at least one second", () => {
    expect(cardPageSeconds(link, session, at(30 * MINUTE - 200))).toBe(1);
  });

  it("when the session ends before the link, then the session's end bounds it", () => {
    const short = { ...session, expiresAt: at(5 * MINUTE) };
    expect(cardPageSeconds(link, short, at(0))).toBe(300);
  });
});

describe("checkoutStateOf", () => {
  it("when the session is payable and the link valid, then PAYABLE; once the link ends, LINK_EXPIRED; once the session ends, CLOSED", () => {
    const session = sessionFixture(newScope());
    const link = session.checkoutLinks[0]!;
    expect(checkoutStateOf(session, link, session.createdAt)).toBe("PAYABLE");
    expect(checkoutStateOf(session, link, link.expiresAt)).toBe("LINK_EXPIRED");
    expect(checkoutStateOf(session, link, session.expiresAt)).toBe("CLOSED");
    expect(checkoutStateOf({ ...session, status: "PROCESSING" }, link, session.createdAt)).toBe("PROCESSING");
  });
});
