import { GatewayError } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { parseTerminalInput, type TerminalInput, terminalSecretContext } from "../src/domain/terminal.js";

const VALID: TerminalInput = {
  baseUrl: "https://acquirer.example/payment/rest",
  username: "shop-1",
  password: "pa ss",
  active: true,
};

function violationsOf(
  input: Partial<TerminalInput>,
  livemode = false,
): Array<{ field: string; code: string; message: string }> {
  try {
    parseTerminalInput({ ...VALID, ...input }, livemode);
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).reason).toBe("VALIDATION_ERROR");
    return (err as GatewayError).violations;
  }
  throw new Error("expected a validation error");
}

const fieldsAndCodes = (violations: Array<{ field: string; code: string }>) =>
  violations.map(({ field, code }) => [field, code]);

describe("terminal settings", () => {
  it("when every field is valid, then the URL is normalised, the username trimmed and the password kept exactly", () => {
    expect(
      parseTerminalInput(
        {
          baseUrl: " https://Acquirer.example/payment/rest/ ",
          username: " shop-1 ",
          password: " pa ss ",
          active: false,
        },
        true,
      ),
    ).toEqual({
      baseUrl: "https://acquirer.example/payment/rest",
      username: "shop-1",
      password: " pa ss ",
      active: false,
    });
  });

  it("when a test terminal uses http, then it is accepted (a local simulator)", () => {
    expect(parseTerminalInput({ ...VALID, baseUrl: "http://localhost:8080/epg/rest" }, false).baseUrl).toBe(
      "http://localhost:8080/epg/rest",
    );
  });

  it("when a live terminal uses http, then base_url is invalid: live terminals need https", () => {
    expect(violationsOf({ baseUrl: "http://acquirer.example/rest" }, true)).toEqual([
      { field: "base_url", code: "invalid", message: "base_url of a live terminal must use https." },
    ]);
  });

  it.each([
    ["relative", "/epg/rest"],
    ["not a URL", "acquirer dot example"],
    ["another scheme", "ftp://acquirer.example/rest"],
    ["javascript", "javascript:alert(1)"],
    ["with credentials", "https://user:pw@acquirer.example/rest"],
    ["with a query", "https://acquirer.example/rest?x=1"],
    ["with a fragment", "https://acquirer.example/rest#top"],
    ["too long", `https://acquirer.example/${"a".repeat(2048)}`],
  ])("when base_url is %s, then it is invalid", (_why, baseUrl) => {
    expect(fieldsAndCodes(violationsOf({ baseUrl }))).toEqual([["base_url", "invalid"]]);
  });

  it("when a base_url carries credentials, then the message does not repeat them", () => {
    const [violation] = violationsOf({ baseUrl: "https://user:hunter2@acquirer.example/rest" });
    expect(violation?.message).not.toContain("hunter2");
  });

  it("when every field is empty, then each is reported as required in one answer", () => {
    expect(fieldsAndCodes(violationsOf({ baseUrl: " ", username: "  ", password: "" }))).toEqual([
      ["base_url", "required"],
      ["username", "required"],
      ["password", "required"],
    ]);
  });

  it("when the username is 100 characters, then it is accepted; 101 or a control character is invalid", () => {
    expect(parseTerminalInput({ ...VALID, username: "é".repeat(100) }, false).username).toBe("é".repeat(100));
    expect(fieldsAndCodes(violationsOf({ username: "u".repeat(101) }))).toEqual([["username", "invalid"]]);
    expect(fieldsAndCodes(violationsOf({ username: "shop\u0000one" }))).toEqual([["username", "invalid"]]);
  });

  it("when the password is 200 characters (emoji counted once), then it is accepted; 201 is invalid and never quoted", () => {
    expect(parseTerminalInput({ ...VALID, password: "🔐".repeat(200) }, false).password).toBe(
      "🔐".repeat(200),
    );
    const secret = `SECRET-${"x".repeat(194)}`;
    const violations = violationsOf({ password: secret });
    expect(fieldsAndCodes(violations)).toEqual([["password", "invalid"]]);
    expect(JSON.stringify(violations)).not.toContain("SECRET");
  });

  it("when the password is only spaces, then it is kept as given (passwords are not trimmed)", () => {
    expect(parseTerminalInput({ ...VALID, password: "   " }, false).password).toBe("   ");
  });

  it("when contexts are made for different merchants or modes, then they differ", () => {
    expect(terminalSecretContext("mer_a", false)).not.toBe(terminalSecretContext("mer_a", true));
    expect(terminalSecretContext("mer_a", false)).not.toBe(terminalSecretContext("mer_b", false));
  });
});
