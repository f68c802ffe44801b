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
    memory.remember("k", "told");
    expect(await memory.answer("k", async () => "asked")).toBe("told");
  });

  it("when more keys are remembered than the bound, then the oldest is forgotten first", async () => {
    const memory = new AnswerMemory<number>(new ManualClock(new Date(0)), 1_000, { maxEntries: 2 });
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

/** A question whose answers the test hands out one by one. */
function held<V>() {
  const waiting: Array<{ resolve(value: V): void; reject(err: Error): void }> = [];
  return {
    ask: () => new Promise<V>((resolve, reject) => waiting.push({ resolve, reject })),
    asked: () => waiting.length,
    answer: (i: number, value: V) => waiting[i]!.resolve(value),
    fail: (i: number) => waiting[i]!.reject(new Error("refused")),
  };
}

/** Lets answers that arrived run their callbacks. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A memory of 1 s whose key "k" was just asked and answered `first`; later questions are held. */
async function answeredOnce(first: string) {
  const clock = new ManualClock(new Date(0));
  const memory = new AnswerMemory<string>(clock, 1_000);
  const q = held<string>();
  const asked = memory.answer("k", q.ask);
  q.answer(0, first);
  expect(await asked).toBe(first);
  return { clock, memory, q };
}

describe("answers renewed before they run out", () => {
  it("when an answer is used in the second half of its time, then it is given at once and asked again once, in the background", async () => {
    const { clock, memory, q } = await answeredOnce("first");
    clock.advance(499);
    expect(await memory.answer("k", q.ask)).toBe("first");
    expect(q.asked()).toBe(1);
    clock.advance(1);
    expect(await memory.answer("k", q.ask)).toBe("first");
    expect(await memory.answer("k", q.ask)).toBe("first");
    expect(q.asked()).toBe(2);
    q.answer(1, "renewed");
    await settle();
    expect(await memory.answer("k", q.ask)).toBe("renewed");
    // The renewed answer's time counts from when it was asked (at 500 ms), so it is renewed in
    // turn from 1,000 ms and given until 1,500 ms.
    clock.advance(499);
    expect(await memory.answer("k", q.ask)).toBe("renewed");
    expect(q.asked()).toBe(2);
    clock.advance(500);
    expect(await memory.answer("k", q.ask)).toBe("renewed");
    expect(q.asked()).toBe(3);
    clock.advance(1);
    void memory.answer("k", q.ask);
    expect(q.asked()).toBe(4);
  });

  it("when a renewal does not come back, then the old answer is still not given past its time", async () => {
    const { clock, memory, q } = await answeredOnce("first");
    clock.advance(600);
    expect(await memory.answer("k", q.ask)).toBe("first");
    clock.advance(400);
    const late = memory.answer("k", q.ask);
    expect(q.asked()).toBe(3);
    q.answer(2, "asked");
    expect(await late).toBe("asked");
  });

  it("when a renewal fails, then the key is forgotten and the next call asks", async () => {
    const { clock, memory, q } = await answeredOnce("yes");
    clock.advance(700);
    expect(await memory.answer("k", q.ask)).toBe("yes");
    q.fail(1);
    await settle();
    const next = memory.answer("k", q.ask);
    expect(q.asked()).toBe(3);
    q.answer(2, "asked again");
    expect(await next).toBe("asked again");
  });

  it("when the key is forgotten or told something else while a renewal is on its way, then the renewal is dropped", async () => {
    const { clock, memory, q } = await answeredOnce("old");
    clock.advance(600);
    await memory.answer("k", q.ask);
    memory.remember("k", "told");
    q.answer(1, "renewal read before the change");
    await settle();
    expect(await memory.answer("k", q.ask)).toBe("told");
  });

  it("when told to forget answers that match, then those and the ones still on their way are forgotten, the rest kept", async () => {
    const memory = new AnswerMemory<string>(new ManualClock(new Date(0)), 1_000);
    await memory.answer("a", async () => "revoked");
    await memory.answer("b", async () => "kept");
    const q = held<string>();
    void memory.answer("c", q.ask);
    memory.forgetWhere((answer) => answer === "revoked");
    q.answer(0, "on its way");
    expect(await memory.answer("a", async () => "asked a")).toBe("asked a");
    expect(await memory.answer("b", async () => "asked b")).toBe("kept");
    expect(await memory.answer("c", async () => "asked c")).toBe("asked c");
  });
});
