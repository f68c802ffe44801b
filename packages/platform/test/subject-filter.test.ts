import { describe, expect, it } from "vitest";
import { subjectMatches } from "../src/events/subject-filter.js";

describe("subject filters", () => {
  it.each([
    ["gateway.events.>", "gateway.events.session.paid", true],
    ["gateway.events.>", "gateway.events", false],
    ["gateway.*.paid", "gateway.session.paid", true],
    ["gateway.*.paid", "gateway.session.x.paid", false],
    ["gateway.events.session", "gateway.events.session", true],
    ["gateway.events.session", "gateway.events.sessions", false],
    ["*", "a", true],
    ["*", "a.b", false],
  ])("when the filter is %s and the subject %s, then it matches: %s", (filter, subject, expected) => {
    expect(subjectMatches(filter, subject)).toBe(expected);
  });
});
