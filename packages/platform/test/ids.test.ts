import { describe, expect, it } from "vitest";
import { derivedId, newId } from "../src/ids.js";

describe("derivedId", () => {
  it("when given the same seed, then it gives the same id, shaped like newId", () => {
    const id = derivedId("evt", "session.expired|ps_1");
    expect(id).toBe(derivedId("evt", "session.expired|ps_1"));
    expect(id).toMatch(/^evt_[0-9A-Za-z]{24}$/);
    expect(id.length).toBe(newId("evt").length);
  });

  it("when the seeds differ, then the ids differ", () => {
    const ids = new Set(Array.from({ length: 1000 }, (_, i) => derivedId("evt", `seed ${i}`)));
    expect(ids.size).toBe(1000);
  });
});
