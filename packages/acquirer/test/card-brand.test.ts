import { describe, expect, it } from "vitest";
import { cardBrandFromBin, summarizeMaskedPan } from "../src/index.js";

describe("card brand from the BIN", () => {
  it.each([
    ["4", "visa"],
    ["424242", "visa"],
    ["400000", "visa"],
    ["510000", "mastercard"],
    ["555555", "mastercard"],
    ["550000", "mastercard"],
    ["222100", "mastercard"],
    ["272099", "mastercard"],
    ["340000", "amex"],
    ["371449", "amex"],
    ["560000", "unknown"],
    ["500000", "unknown"],
    ["222099", "unknown"],
    ["272100", "unknown"],
    ["350000", "unknown"],
    ["601100", "unknown"],
    ["", "unknown"],
    ["ab1234", "unknown"],
  ])("when the card starts with %s, then the brand is %s", (bin, brand) => {
    expect(cardBrandFromBin(bin)).toBe(brand);
  });
});

describe("masked PAN summary", () => {
  it("when the acquirer masks as 424242**4242, then only visa and 4242 remain", () => {
    expect(summarizeMaskedPan("424242**4242")).toEqual({ brand: "visa", lastFour: "4242" });
  });

  it("when the mask uses spaces and X, then brand and last four are still read", () => {
    expect(summarizeMaskedPan("5555 55XX XXXX 4444")).toEqual({ brand: "mastercard", lastFour: "4444" });
  });

  it("when the mask hides the BIN, then the brand is unknown but the last four are kept", () => {
    expect(summarizeMaskedPan("************0005")).toEqual({ brand: "unknown", lastFour: "0005" });
  });

  it("when there are no last four digits, then there is no card summary", () => {
    expect(summarizeMaskedPan("424242******")).toBeUndefined();
  });
});
