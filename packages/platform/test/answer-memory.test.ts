import { describe, expect, it } from "vitest";
import { AnswerMemory } from "../src/answer-memory.js";
import { ManualClock } from "../src/clock.js";

/** A question that counts how often it is asked and answers its count. */
function counted() {
  let asked = 0;
  return {
    ask: async () => ++asked,
    asked: () => asked,
  };
}

describe("answers remembered for a while", () => {
  it("when asked again within the time, then the first answer is given without asking", async () => {
    const clock = new ManualClock(new Date(0));
    const memory = new AnswerMemory<number>(clock, 1_000);
    const q = counted();
    expect(await memory.answer("k", q.ask)).toBe(1);
    clock.advance(999);
    expect(await memory.answer("k", q.ask)).toBe(1);
    clock.advance(1);
    expect(await memory.answer("k", q.ask)).toBe(2);
    expect(q.asked()).toBe(2);
  });

  it("when many ask at once, then they share one question", async () => {
    const memory = new AnswerMemory<number>(new ManualClock(new Date(0)), 1_000);
    const q = counted();
    expect(await Promise.all([memory.answer("k", q.ask), memory.answer("k", q.ask)])).toEqual([1, 1]);
    expect(q.asked()).toBe(1);
  });

  it("when the question fails, then the failure is not remembered", async () => {
    const memory = new AnswerMemory<number>(new ManualClock(new Date(0)), 1_000);
    await expect(memory.answer("k", async () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await memory.answer("k", async () => 7)).toBe(7);
  });

  it("when a key is forgotten while its answer is on its way, then the next call asks afresh", async () => {
    const memory = new AnswerMemory<string>(new ManualClock(new Date(0)), 1_000);
    let answer!: (value: string) => void;
    const early = memory.answer("k", () => new Promise<string>((resolve) => (answer = resolve)));
    memory.forget("k");
    answer("old");
    expect(await early).toBe("old");
    expect(await memory.answer("k", async () => "new")).toBe("new");
  });

  it("when an answer is told, then it is given without asking, in place of the one before", async () => {
    const memory = new AnswerMemory<string>(new ManualClock(new Date(0)), 1_000);
    await memory.answer("k", async () => "before");
    memory.remember("k", Promise.resolve("told"));
    expect(await memory.answer("k", async () => "asked")).toBe("told");
  });

  it("when more keys are remembered than the bound, then the oldest is forgotten first", async () => {
    const memory = new AnswerMemory<number>(new ManualClock(new Date(0)), 1_000, 2);
    const q = counted();
    await memory.answer("a", q.ask);
    await memory.answer("b", q.ask);
    await memory.answer("c", q.ask);
    expect(q.asked()).toBe(3);
    await memory.answer("b", q.ask);
    await memory.answer("c", q.ask);
    expect(q.asked()).toBe(3);
    expect(await memory.answer("a", q.ask)).toBe(4);
  });
});
