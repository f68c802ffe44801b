import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../src/sha256.js";

describe("sha256Hex", () => {
  it("when given the standard test vector, then it answers its digest in lower-case hex", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("when the text is not ASCII, then it hashes the UTF-8 bytes, as the stored key hashes were made", () => {
    for (const text of ["é", "sk_test_€uro", "日本語", "\u{1F4B3} card", ""]) {
      expect(sha256Hex(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
    }
  });
});
