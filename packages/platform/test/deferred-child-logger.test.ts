import { describe, expect, it, vi } from "vitest";
import { DeferredChildLogger, deferredChildLoggerFactory } from "../src/deferred-child-logger.js";
import { captureLogger } from "./capture-logger.js";

function deferredUnderTest(level = "debug") {
  const capture = captureLogger("edge");
  capture.logger.level = level;
  const makeChild = vi.spyOn(capture.logger, "child");
  const deferred = new DeferredChildLogger(capture.logger, { reqId: "req-1" });
  return { ...capture, makeChild, deferred };
}

describe("a deferred child logger", () => {
  it("when nothing is written, or only lines below its level, then no pino child is made and no line appears", () => {
    const { deferred, makeChild, lines } = deferredUnderTest("warn");
    deferred.info({ req: "incoming" }, "incoming request");
    deferred.debug("details");
    deferred.trace("more details");
    deferred.silent("never");
    expect(deferred.level).toBe("warn");
    expect(deferred.isLevelEnabled("info")).toBe(false);
    expect(deferred.isLevelEnabled("warn")).toBe(true);
    expect(makeChild).not.toHaveBeenCalled();
    expect(lines()).toEqual([]);
  });

  it("when lines are written, then the child is made once and each line carries its bindings, redacted and scrubbed as the parent's", () => {
    const { deferred, makeChild, lines } = deferredUnderTest("warn");
    deferred.warn({ apiKey: "sk_test_secretValue1", merchant: "mer_1" }, "dependency down");
    deferred.error("failed with sk_live_secretValue2");
    deferred.fatal({ n: 3 });
    expect(makeChild).toHaveBeenCalledTimes(1);
    expect(lines()).toEqual([
      expect.objectContaining({
        level: 40,
        reqId: "req-1",
        service: "edge",
        apiKey: "[REDACTED]",
        merchant: "mer_1",
        msg: "dependency down",
      }),
      expect.objectContaining({ level: 50, reqId: "req-1", msg: "failed with sk_live_[REDACTED]" }),
      expect.objectContaining({ level: 60, reqId: "req-1", n: 3 }),
    ]);
  });

  it("when a message has format arguments, then they are passed on as pino formats them", () => {
    const { deferred, lines } = deferredUnderTest();
    deferred.info({ route: "/x" }, "took %d ms on %s", 12, "GET");
    deferred.debug("plain %s", "text");
    expect(lines().map((l) => l.msg)).toEqual(["took 12 ms on GET", "plain text"]);
  });

  it("when its level is set, then the child takes it and the parent keeps its own", () => {
    const { deferred, logger, lines } = deferredUnderTest("warn");
    deferred.level = "debug";
    deferred.debug("now written");
    expect(deferred.level).toBe("debug");
    expect(logger.level).toBe("warn");
    logger.debug("parent still quiet");
    expect(lines()).toEqual([expect.objectContaining({ reqId: "req-1", msg: "now written" })]);
  });

  it("when a child of it is asked for, then that child carries both sets of bindings", () => {
    const { deferred, lines } = deferredUnderTest();
    deferred.child({ component: "audit" }).info("nested");
    expect(lines()).toEqual([expect.objectContaining({ reqId: "req-1", component: "audit", msg: "nested" })]);
  });
});

describe("the request logger factory", () => {
  it("when the route asks for nothing of its own, then the child is deferred; when it sets a level, then pino's child is made at once with it", () => {
    const { logger, lines } = captureLogger("edge");
    logger.level = "info";
    expect(deferredChildLoggerFactory(logger, { reqId: "a" }, {})).toBeInstanceOf(DeferredChildLogger);
    const routeLogger = deferredChildLoggerFactory(logger, { reqId: "b" }, { level: "error" });
    expect(routeLogger).not.toBeInstanceOf(DeferredChildLogger);
    routeLogger.warn("below the route's level");
    routeLogger.error("at the route's level");
    expect(lines()).toEqual([expect.objectContaining({ reqId: "b", msg: "at the route's level" })]);
  });
});
