import { describe, expect, it } from "vitest";
import { KeyedSerializer } from "../src/keyed-serializer.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("KeyedSerializer", () => {
  it("when tasks share a key, then they run one at a time in call order, and a failure does not stop the next", async () => {
    const serializer = new KeyedSerializer();
    const log: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`start ${name}`);
        await tick();
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      serializer.run("k", task("a")),
      serializer.run("k", task("b", true)),
      serializer.run("k", task("c")),
    ]);
    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(serializer.size).toBe(0);
  });

  it("when tasks have different keys, then they run at the same time", async () => {
    const serializer = new KeyedSerializer();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
    };
    await Promise.all([serializer.run("x", task("x")), serializer.run("y", task("y"))]);
    expect(log.slice(0, 2).sort()).toEqual(["start x", "start y"]);
  });
});
