import { Writable } from "node:stream";
import { createLogger, type Logger } from "@gateway/platform";

export interface CapturedLog {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A real platform logger whose JSON lines are kept for assertions. */
export function capturingLogger(): { logger: Logger; lines: CapturedLog[] } {
  const lines: CapturedLog[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString("utf8").split("\n"))
        if (line.trim() !== "") lines.push(JSON.parse(line) as CapturedLog);
      callback();
    },
  });
  return { logger: createLogger({ service: "rate-limiter-test", level: "info", destination }), lines };
}

export const WARN = 40;
export const INFO = 30;
