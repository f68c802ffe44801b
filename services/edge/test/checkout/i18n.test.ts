import { describe, expect, it } from "vitest";
import { ar } from "../../src/checkout/i18n/ar.js";
import { en } from "../../src/checkout/i18n/en.js";
import { fr } from "../../src/checkout/i18n/fr.js";
import { chooseLanguage, languageFromAcceptLanguage } from "../../src/checkout/i18n/languages.js";
import { FAILURE_CODES } from "../../src/checkout/i18n/messages.js";

/** Every key path of a message table ("failed.title", "failureReasons.card_declined", "payButton"). */
function keyPaths(value: object, prefix = ""): string[] {
  return Object.entries(value)
    .flatMap(([key, inner]) =>
      typeof inner === "object" && inner !== null
        ? keyPaths(inner as object, `${prefix}${key}.`)
        : [`${prefix}${key}`],
    )
    .sort();
}

describe("checkout messages", () => {
  it("when the three languages are compared, then they have exactly the same keys", () => {
    expect(keyPaths(fr)).toEqual(keyPaths(en));
    expect(keyPaths(ar)).toEqual(keyPaths(en));
  });

  it("when a message is text, then it is never empty, and functions take their values", () => {
    for (const table of [en, fr, ar]) {
      for (const path of keyPaths(table)) {
        const value = path
          .split(".")
          .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], table);
        if (typeof value === "string") expect(value.trim(), path).not.toBe("");
        else
          expect(String((value as (...args: never[]) => string)(...(["X", "Y"] as never[])))).toContain("X");
      }
      expect(table.attemptsLeft(2)).toContain("2");
    }
  });

  it("explains every failure code the acquirer adapter produces, in each language", () => {
    for (const table of [en, fr, ar])
      expect(Object.keys(table.failureReasons).sort()).toEqual([...FAILURE_CODES].sort());
  });

  it("marks Arabic as right-to-left and the others as left-to-right", () => {
    expect([en.dir, fr.dir, ar.dir]).toEqual(["ltr", "ltr", "rtl"]);
  });
});

describe("language choice", () => {
  it("reads Accept-Language by quality, region subtags included", () => {
    expect(languageFromAcceptLanguage("fr-TN,fr;q=0.9,en;q=0.8")).toBe("fr");
    expect(languageFromAcceptLanguage("de-DE, ar;q=0.5, en;q=0.7")).toBe("en");
    expect(languageFromAcceptLanguage("ar-TN")).toBe("ar");
    expect(languageFromAcceptLanguage("de, it")).toBeUndefined();
    expect(languageFromAcceptLanguage("fr;q=0, en;q=0.1")).toBe("en");
    expect(languageFromAcceptLanguage("EN-gb")).toBe("en");
    expect(languageFromAcceptLanguage(undefined)).toBeUndefined();
    expect(languageFromAcceptLanguage("")).toBeUndefined();
  });

  it("prefers the query, then the cookie, then the browser, then English", () => {
    expect(chooseLanguage({ query: "ar", cookie: "fr", acceptLanguage: "en" })).toEqual({
      language: "ar",
      chosenNow: true,
    });
    expect(chooseLanguage({ query: "xx", cookie: "fr", acceptLanguage: "en" })).toEqual({
      language: "fr",
      chosenNow: false,
    });
    expect(chooseLanguage({ cookie: "zz", acceptLanguage: "ar,fr" })).toEqual({
      language: "ar",
      chosenNow: false,
    });
    expect(chooseLanguage({ acceptLanguage: "de" })).toEqual({ language: "en", chosenNow: false });
    expect(chooseLanguage({ query: ["fr", "ar"] })).toEqual({ language: "en", chosenNow: false });
  });
});
