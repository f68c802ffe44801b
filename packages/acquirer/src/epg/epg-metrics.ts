import { Counter, metricsRegistry } from "@gateway/platform";
import type { EpgOperation } from "./epg-protocol.js";

/**
 * Calls to the acquirer by operation and result. `unavailable` (timeout, refused connection,
 * HTTP 5xx or an unreadable answer) is what the "acquirer unavailable" alert watches; `error_code`
 * is an answer with a non-zero EPG errorCode (a refusal, not an outage).
 */
const calls = new Counter({
  name: "gateway_acquirer_requests_total",
  help: "Calls to the acquirer (EPG), by operation and result (ok, error_code: refused by the acquirer, unavailable: no usable answer).",
  labelNames: ["operation", "result"] as const,
  registers: [metricsRegistry],
});

export type EpgCallResult = "ok" | "error_code" | "unavailable";

export function recordEpgCall(operation: EpgOperation, result: EpgCallResult): void {
  calls.inc({ operation, result });
}
