import { isSpanContextValid, trace } from "@opentelemetry/api";
import { type DestinationStream, type Logger, pino } from "pino";

export type { Logger } from "pino";

/**
 * Paths pino censors in every log line. Secrets (API keys, webhook secrets, terminal
 * passwords, admin tokens) and card data must never reach a log, whatever the caller logs.
 */
export const REDACT_PATHS = [
  "authorization",
  "*.authorization",
  "headers.authorization",
  "req.headers.authorization",
  "request.headers.authorization",
  "apiKey",
  "*.apiKey",
  "api_key",
  "*.api_key",
  "key",
  "*.key",
  "secret",
  "*.secret",
  "previous_secret",
  "*.previous_secret",
  "password",
  "*.password",
  "adminToken",
  "*.adminToken",
  "pan",
  "*.pan",
  "cvc",
  "*.cvc",
  "cardNumber",
  "*.cardNumber",
];

/** The secret shapes our system issues; scrubbed from any free-text log message too. */
const SECRET_PATTERN = /\b(sk_(?:live|test)_|whsec_)[A-Za-z0-9]+/g;

export function scrubSecrets(text: string): string {
  return text.replace(SECRET_PATTERN, "$1[REDACTED]");
}

/**
 * pino `mixin`: the active OpenTelemetry span's ids on every line written inside a span (an
 * HTTP request, an RPC, a relay publish), so a log line leads to its trace and a trace to its
 * logs. Names follow OpenTelemetry's log data model (trace_id, span_id, trace_flags). Outside
 * any span (start-up, timers) there is nothing to add.
 */
export function traceContextMixin(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const context = span.spanContext();
  if (!isSpanContextValid(context)) return {};
  return {
    trace_id: context.traceId,
    span_id: context.spanId,
    trace_flags: `0${context.traceFlags.toString(16)}`.slice(-2),
  };
}

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Where lines go; stdout when absent. Tests pass a capture stream. */
  destination?: DestinationStream;
}

/** JSON logs, one line per event, with redaction of secrets by path and by shape. */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level ?? process.env.LOG_LEVEL ?? "info",
      base: { service: options.service },
      redact: { paths: REDACT_PATHS, censor: "[REDACTED]" },
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin: traceContextMixin,
      hooks: {
        logMethod(args, method) {
          // Scrub secret-shaped text from message strings (e.g. an error message quoting a header).
          const scrubbed = args.map((a) => (typeof a === "string" ? scrubSecrets(a) : a));
          return method.apply(this, scrubbed as Parameters<typeof method>);
        },
      },
      formatters: {
        log(object) {
          const err = (object as { err?: unknown }).err;
          if (err instanceof Error) {
            return {
              ...object,
              err: {
                type: err.name,
                message: scrubSecrets(err.message),
                stack: err.stack ? scrubSecrets(err.stack) : undefined,
              },
            };
          }
          return object;
        },
      },
    },
    options.destination,
  );
}
