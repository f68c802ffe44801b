import { Writable } from "node:stream";
import { createLogger, type Logger } from "@gateway/platform";

/** A real logger whose lines are kept in memory, so tests can check what reaches the logs. */
export function createCaptureLogger(): { logger: Logger; text: () => string } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString("utf8"));
      done();
    },
  });
  const logger = createLogger({ service: "accounts-test", level: "debug", destination });
  return { logger, text: () => chunks.join("") };
}
