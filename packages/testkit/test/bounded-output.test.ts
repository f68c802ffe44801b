import { describe, expect, it } from "vitest";
import { BoundedOutput } from "../src/process/bounded-output.js";

describe("BoundedOutput", () => {
  it("when output stays under the limit, then all of it is kept", () => {
    const output = new BoundedOutput(100);
    output.append(Buffer.from("hello "));
    output.append(Buffer.from("world"));
    expect(output.toString()).toBe("hello world");
  });

  it("when output exceeds the limit, then only the last bytes are kept and the drop is noted", () => {
    const output = new BoundedOutput(10);
    output.append(Buffer.from("0123456789"));
    output.append(Buffer.from("abcdef"));
    expect(output.toString()).toBe("[… 6 earlier bytes dropped]\n6789abcdef");
  });

  it("when one chunk alone exceeds the limit, then its tail is kept", () => {
    const output = new BoundedOutput(4);
    output.append(Buffer.from("abcdefgh"));
    expect(output.toString()).toBe("[… 4 earlier bytes dropped]\nefgh");
  });
});
