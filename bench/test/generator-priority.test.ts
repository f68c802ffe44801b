import { getPriority } from "node:os";
import { describe, expect, it } from "vitest";
import { RAISED_NICE, withRaisedPriority } from "../support/generator-priority.js";
import type { LoadResult } from "../support/http-load.js";
import { generatorPriorityNote } from "../support/http-scale-tables.js";

describe("withRaisedPriority", () => {
  it("when it measures, then the thread runs at the raised priority if allowed, else as before, and is restored after", async () => {
    const before = getPriority();
    const { result, raised } = await withRaisedPriority(async () => getPriority());
    expect(result).toBe(raised ? RAISED_NICE : before);
    expect(getPriority()).toBe(before);
  });

  it("when the measurement throws, then the priority is restored and the error passes through", async () => {
    const before = getPriority();
    await expect(
      withRaisedPriority(async () => {
        throw new Error("target went away");
      }),
    ).rejects.toThrow("target went away");
    expect(getPriority()).toBe(before);
  });
});

describe("generatorPriorityNote", () => {
  const loop = (generatorRaised: boolean) => ({ generatorRaised }) as LoadResult;

  it("says whether every 50% loop, none or some ran at the raised priority", () => {
    expect(generatorPriorityNote([loop(true), loop(true)])).toBe(
      `The load generator ran the 50% loops at nice ${RAISED_NICE}.`,
    );
    expect(generatorPriorityNote([loop(false), loop(false)])).toMatch(
      /usual priority: raising it was not permitted/,
    );
    expect(generatorPriorityNote([loop(true), loop(false)])).toBe(
      `The load generator ran 1 of 2 50% loops at nice ${RAISED_NICE}, the rest at the usual priority.`,
    );
  });
});
