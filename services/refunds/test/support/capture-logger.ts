import { createLogger, type Logger } from "@gateway/platform";

/** A logger that keeps its lines, so tests can assert what was (and was not) logged. */
export function captureLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({
    service: "refunds-test",
    level: "debug",
    destination: { write: (line: string) => void lines.push(line) },
  });
  return { logger, lines };
}
