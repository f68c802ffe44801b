import { describe, expect, it } from "vitest";
import { D, formatAmount, fromMinorUnits, toMinorUnits } from "../src/index.js";

describe("minor units", () => {
  it.each([
    ["34.000", "TND", 34000n],
    ["34", "TND", 34000n],
    ["0.001", "TND", 1n],
    ["0.05", "EUR", 5n],
    ["10.5", "EUR", 1050n],
    ["12", "JPY", 12n],
    ["1.2345", "CLF", 12345n],
    ["-2.50", "EUR", -250n],
    ["0", "EUR", 0n],
    ["123456789012345678901234567890.12", "EUR", 12345678901234567890123456789012n],
  ])("when %s %s is stored, then it is %s minor units", (text, currency, minor) => {
    expect(toMinorUnits(new D(text), currency)).toBe(minor);
  });

  it.each([
    ["0.0001", "TND"],
    ["10.001", "EUR"],
    ["12.5", "JPY"],
  ])("when %s has more decimals than %s allows, then converting refuses to round", (text, currency) => {
    expect(() => toMinorUnits(new D(text), currency)).toThrow(/decimal places/);
  });

  it("when the value is not finite, then converting throws", () => {
    expect(() => toMinorUnits(new D(NaN), "TND")).toThrow(/cannot express/);
    expect(() => toMinorUnits(new D(Infinity), "TND")).toThrow(/cannot express/);
  });

  it.each([
    [34000n, "TND", "34.000"],
    [1n, "TND", "0.001"],
    [0n, "TND", "0.000"],
    [5n, "EUR", "0.05"],
    [100n, "EUR", "1.00"],
    [12n, "JPY", "12"],
    [0n, "JPY", "0"],
    [12345n, "CLF", "1.2345"],
    [-5n, "EUR", "-0.05"],
    [-34000n, "TND", "-34.000"],
  ])("when %s minor units of %s are shown, then the text is %s", (minor, currency, text) => {
    expect(fromMinorUnits(minor, currency)).toBe(text);
  });

  it.each([
    ["10", "TND", "10.000"],
    ["10.1", "EUR", "10.10"],
    ["0.0005", "TND", "0.001"],
    ["0.0004", "TND", "0.000"],
    ["2.345", "EUR", "2.35"],
    ["2.344999", "EUR", "2.34"],
    ["-2.345", "EUR", "-2.35"],
    ["-0.0004", "TND", "0.000"],
    ["12.5", "JPY", "13"],
    ["1e21", "EUR", "1000000000000000000000.00"],
  ])("when %s is formatted in %s, then it reads %s (half-up)", (text, currency, formatted) => {
    expect(formatAmount(new D(text), currency)).toBe(formatted);
  });

  it("when the currency is unknown, then the minor-unit helpers throw", () => {
    expect(() => toMinorUnits(new D("1"), "ABC")).toThrow(/unknown ISO 4217/);
    expect(() => fromMinorUnits(1n, "ABC")).toThrow(/unknown ISO 4217/);
    expect(() => formatAmount(new D("1"), "ABC")).toThrow(/unknown ISO 4217/);
  });
});
