import { GatewayError } from "@gateway/platform";
import type { Terminal } from "../acquirer-port.js";
import {
  connectionError,
  httpStatusError,
  protocolError,
  timeoutError,
  unreadableAnswerError,
} from "./epg-errors.js";
import { recordEpgCall } from "./epg-metrics.js";
import { EPG_OPERATIONS, type EpgOperation } from "./epg-protocol.js";

export interface EpgHttpOptions {
  timeoutMs: number;
  fetchImpl: typeof fetch;
}

/** Error codes of a connection that failed before any byte of the request left. */
const NOTHING_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

function errorCodeOf(err: unknown): string | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string") return code;
  // undici wraps the socket error (sometimes an AggregateError of the tried addresses) in `cause`.
  const nested = (err as { errors?: unknown[] }).errors?.[0] ?? (err as { cause?: unknown }).cause;
  return nested === undefined || nested === err ? undefined : errorCodeOf(nested);
}

function isTimeout(err: unknown): boolean {
  return err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
}

function operationUrl(terminal: Terminal, operation: EpgOperation): URL {
  let base: URL;
  try {
    base = new URL(terminal.baseUrl.endsWith("/") ? terminal.baseUrl : `${terminal.baseUrl}/`);
  } catch {
    base = new URL("invalid:");
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new GatewayError("TERMINAL_REJECTED", "The acquirer terminal's base URL is not an http(s) URL.", {
      metadata: { acquirer_operation: operation },
    });
  }
  return new URL(EPG_OPERATIONS[operation], base);
}

/** errorCode as a number: absent or "" is 0 (accepted); anything not an integer is unreadable. */
function readErrorCode(value: unknown): number | undefined {
  if (value === undefined || value === null || value === "") return 0;
  const text = String(value).trim();
  return /^-?\d+$/.test(text) ? Number(text) : undefined;
}

/**
 * One protocol call: form-encoded POST with the terminal's credentials, bounded by the timeout
 * (connection, answer and body alike). Returns the answer's JSON object (callEpg checks its
 * errorCode); every failure is a GatewayError from the table in epg-errors.ts. The password travels only in
 * the request body and is never part of an error.
 */
async function exchange(
  operation: EpgOperation,
  terminal: Terminal,
  params: Record<string, string | undefined>,
  options: EpgHttpOptions,
): Promise<Record<string, unknown>> {
  const url = operationUrl(terminal, operation);
  const body = new URLSearchParams({ userName: terminal.username, password: terminal.password });
  for (const [name, value] of Object.entries(params)) if (value !== undefined) body.set(name, value);

  const signal = AbortSignal.timeout(options.timeoutMs);
  let status: number;
  let text: string;
  try {
    const res = await options.fetchImpl(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body,
      signal,
      // A redirect from an acquirer API is a misconfiguration (a login page, a moved host), not an answer.
      redirect: "manual",
    });
    status = res.status;
    text = await res.text();
  } catch (err) {
    if (isTimeout(err) || signal.aborted) throw timeoutError(operation, options.timeoutMs, err);
    const code = errorCodeOf(err);
    throw connectionError(operation, code !== undefined && NOTHING_SENT_CODES.has(code), err);
  }

  if (status < 200 || status > 299) throw httpStatusError(operation, status);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw unreadableAnswerError(operation, "not_json");
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw unreadableAnswerError(operation, "not_an_object");
  return json as Record<string, unknown>;
}

/**
 * One call to the acquirer (see exchange), its answer's errorCode checked: 0 returns the answer,
 * anything else throws the mapped error. Every call is counted by result for the metrics.
 */
export async function callEpg(
  operation: EpgOperation,
  terminal: Terminal,
  params: Record<string, string | undefined>,
  options: EpgHttpOptions,
): Promise<Record<string, unknown>> {
  // A terminal misconfigured with a non-http(s) URL is refused before any call: not an outage.
  operationUrl(terminal, operation);
  let answer: Record<string, unknown>;
  try {
    answer = await exchange(operation, terminal, params, options);
  } catch (err) {
    recordEpgCall(operation, "unavailable");
    throw err;
  }
  const errorCode = readErrorCode(answer.errorCode);
  if (errorCode === undefined) {
    recordEpgCall(operation, "unavailable");
    throw unreadableAnswerError(operation, "bad_error_code");
  }
  if (errorCode !== 0) {
    recordEpgCall(operation, "error_code");
    const message = typeof answer.errorMessage === "string" ? answer.errorMessage : undefined;
    throw protocolError(operation, errorCode, message);
  }
  recordEpgCall(operation, "ok");
  return answer;
}
