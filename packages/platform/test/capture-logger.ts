import { Writable } from "node:stream";
import { createLogger, type Logger } from "../src/logger.js";

/** A real pino logger whose lines land in `lines` (parsed JSON), for asserting on logs. */
export function captureLogger(service = "test"): {
  logger: Logger;
  lines: () => Array<Record<string, unknown>>;
  text: () => string;
} {
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      raw.push(String(chunk));
      cb();
    },
  });
  const logger = createLogger({ service, level: "debug", destination });
  return {
    logger,
    lines: () =>
      raw
        .join("")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    text: () => raw.join(""),
  };
}
