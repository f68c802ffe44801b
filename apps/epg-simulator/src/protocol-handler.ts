import type { IncomingMessage, ServerResponse } from "node:http";
import { EPG_ERROR, EPG_OPERATIONS } from "@gateway/acquirer";
import { BodyTooLargeError, readForm, sendJson } from "./http-io.js";
import type { ProtocolAnswer, SimulatorOrderBook } from "./simulator-order-book.js";
import type { TerminalCredentials } from "./terminal-credentials.js";

export interface ProtocolHandlerDeps {
  book: SimulatorOrderBook;
  credentials: TerminalCredentials;
  /** How long a status call for a processor-timeout order is held before it is answered. */
  timeoutCardDelayMs: number;
  formUrlFor: (req: IncomingMessage, acquirerOrderId: string) => string;
  /** Called after every handled call, so queued notifications go out promptly. */
  afterChange: () => void;
}

/** Waits, unless the client hangs up first (then the answer is not worth sending). */
function hold(res: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      res.off("close", onClose);
      resolve(true);
    }, ms);
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    res.once("close", onClose);
  });
}

/**
 * The protocol endpoints: POST {base}/register.do, getOrderStatusExtended.do, refund.do and
 * reverse.do, form-encoded, answered with JSON and HTTP 200 (protocol errors travel in
 * errorCode, as the real acquirer does). Request bodies are never logged.
 */
export function createProtocolHandler(deps: ProtocolHandlerDeps) {
  return async function handleProtocol(
    req: IncomingMessage,
    res: ServerResponse,
    operation: string,
  ): Promise<void> {
    const known = (Object.values(EPG_OPERATIONS) as string[]).includes(operation);
    if (!known) {
      sendJson(res, 404, { errorCode: "404", errorMessage: "Unknown operation" });
      return;
    }
    if (req.method !== "POST") {
      res.setHeader("allow", "POST");
      sendJson(res, 405, { errorCode: "405", errorMessage: "Use POST" });
      return;
    }
    let params: URLSearchParams;
    try {
      params = await readForm(req);
    } catch (err) {
      if (!(err instanceof BodyTooLargeError)) throw err;
      sendJson(res, 413, { errorCode: "413", errorMessage: "Request too large" });
      return;
    }

    const terminal = deps.credentials.authenticate(params.get("userName"), params.get("password"));
    if (terminal === undefined) {
      sendJson(res, 200, {
        errorCode: String(EPG_ERROR.accessDeniedOrWrongValue),
        errorMessage: "Access denied",
      });
      return;
    }

    let answer: ProtocolAnswer;
    switch (operation) {
      case EPG_OPERATIONS.register:
        answer = deps.book.register(terminal, params, (id) => deps.formUrlFor(req, id));
        break;
      case EPG_OPERATIONS.status: {
        const { answer: statusAnswer, hangs } = deps.book.status(terminal, params);
        if (hangs && !(await hold(res, deps.timeoutCardDelayMs))) return;
        answer = statusAnswer;
        break;
      }
      case EPG_OPERATIONS.refund:
        answer = deps.book.refund(terminal, params);
        break;
      default:
        answer = deps.book.reverse(terminal, params);
        break;
    }
    deps.afterChange();
    sendJson(res, 200, answer);
  };
}
