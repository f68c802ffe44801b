import { type FieldViolation, GatewayError } from "@gateway/platform";

/**
 * A merchant's acquirer terminal for one mode: where the EPG protocol is spoken and as whom.
 * The password is not part of it: it is write-only, stored sealed by the repository, and only
 * ResolveTerminalCredentials ever reads it back (as TerminalCredentials).
 */
export interface Terminal {
  merchantId: string;
  livemode: boolean;
  /** Absolute http(s) URL without a trailing slash; the EPG operations are paths under it. */
  baseUrl: string;
  username: string;
  active: boolean;
  updatedAt: Date;
}

/** What a caller needs to talk to the acquirer. Never logged, never returned by admin calls. */
export interface TerminalCredentials {
  baseUrl: string;
  username: string;
  password: string;
}

export const TERMINAL_BASE_URL_MAX_LENGTH = 2048;
export const TERMINAL_USERNAME_MAX_LENGTH = 100;
export const TERMINAL_PASSWORD_MAX_LENGTH = 200;

// C0 controls and DEL: never part of a real user name, and a NUL cannot even be stored.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

export function modeName(livemode: boolean): "live" | "test" {
  return livemode ? "live" : "test";
}

function codePoints(text: string): number {
  return [...text].length;
}

/**
 * Live terminals must use https: they carry real card payments and the terminal password goes
 * in every request body. Test terminals may use http, so a local EPG simulator works.
 * Credentials, a query or a fragment in the URL are refused: the password has its own field,
 * and the EPG operations are appended as path segments.
 */
function checkBaseUrl(raw: string, livemode: boolean): { baseUrl: string } | { violation: FieldViolation } {
  const text = raw.trim();
  const invalid = (message: string) => ({ violation: { field: "base_url", code: "invalid", message } });
  if (text === "")
    return { violation: { field: "base_url", code: "required", message: "base_url is required." } };
  if (text.length > TERMINAL_BASE_URL_MAX_LENGTH)
    return invalid(`base_url must be at most ${TERMINAL_BASE_URL_MAX_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return invalid(
      "base_url must be an absolute http or https URL, such as https://acquirer.example/payment/rest.",
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return invalid(
      "base_url must be an absolute http or https URL, such as https://acquirer.example/payment/rest.",
    );
  }
  if (url.username !== "" || url.password !== "")
    return invalid("base_url must not contain credentials; give them as username and password.");
  if (url.search !== "" || url.hash !== "" || text.includes("?") || text.includes("#")) {
    return invalid("base_url must not have a query or a fragment.");
  }
  if (livemode && url.protocol !== "https:") return invalid("base_url of a live terminal must use https.");
  return { baseUrl: url.href.replace(/\/+$/, "") };
}

function checkUsername(raw: string): { username: string } | { violation: FieldViolation } {
  const username = raw.trim();
  if (username === "")
    return { violation: { field: "username", code: "required", message: "username is required." } };
  if (codePoints(username) > TERMINAL_USERNAME_MAX_LENGTH || CONTROL_CHARACTER.test(username)) {
    return {
      violation: {
        field: "username",
        code: "invalid",
        message: `username must be 1 to ${TERMINAL_USERNAME_MAX_LENGTH} characters, without control characters.`,
      },
    };
  }
  return { username };
}

/** Passwords are taken exactly as given (spaces included); messages never quote them. */
function checkPassword(password: string): FieldViolation | undefined {
  if (password === "") return { field: "password", code: "required", message: "password is required." };
  if (codePoints(password) > TERMINAL_PASSWORD_MAX_LENGTH) {
    return {
      field: "password",
      code: "invalid",
      message: `password must be 1 to ${TERMINAL_PASSWORD_MAX_LENGTH} characters.`,
    };
  }
  return undefined;
}

export interface TerminalInput {
  baseUrl: string;
  username: string;
  password: string;
  active: boolean;
}

/** Validates every field at once, so the operator sees each problem in one answer. */
export function parseTerminalInput(raw: TerminalInput, livemode: boolean): TerminalInput {
  const violations: FieldViolation[] = [];
  const baseUrl = checkBaseUrl(raw.baseUrl, livemode);
  if ("violation" in baseUrl) violations.push(baseUrl.violation);
  const username = checkUsername(raw.username);
  if ("violation" in username) violations.push(username.violation);
  const password = checkPassword(raw.password);
  if (password) violations.push(password);
  if ("violation" in baseUrl || "violation" in username || violations.length > 0)
    throw GatewayError.validation(violations);
  return {
    baseUrl: baseUrl.baseUrl,
    username: username.username,
    password: raw.password,
    active: raw.active,
  };
}

/**
 * What a sealed password is bound to (GCM additional data): a sealed value copied onto another
 * merchant's or mode's record does not open.
 */
export function terminalSecretContext(merchantId: string, livemode: boolean): string {
  return `terminal-password:${merchantId}:${modeName(livemode)}`;
}
