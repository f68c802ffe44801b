import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  DEFAULT_SIMULATOR_CREDENTIALS,
  settledAfterLocalMidnight,
  type TerminalCredential,
} from "@gateway/acquirer";
import { type Clock, type Logger, systemClock } from "@gateway/platform";
import { createCallbackNotifier } from "./callback-notifier.js";
import { createCardPageHandler } from "./card-page-handler.js";
import { sendText } from "./http-io.js";
import { createProtocolHandler } from "./protocol-handler.js";
import { type LedgerEntry, SimulatorOrderBook } from "./simulator-order-book.js";
import { TerminalCredentials } from "./terminal-credentials.js";

/** Every path the simulator serves starts with this; mount it there in-process. */
const REST_PATH = "/epg/rest/";
const PAYMENT_PATH = "/epg/payment/";

export interface EpgSimulatorOptions {
  clock?: Clock;
  /** Origin (and optional path prefix) the buyer's browser reaches the simulator at; used in formUrl. */
  publicUrl?: string;
  /** Accepted terminals. Default: sim-merchant / sim-password. */
  credentials?: TerminalCredential[];
  /** Longest time an order waits for a card before it is declined by timeout. Default 20 min. */
  orderTimeoutMs?: number;
  /** How long the late-approval card stays pending. Default 5 s. */
  lateApprovalDelayMs?: number;
  /** How long status calls for the processor-timeout card hang. Default 20 s. */
  timeoutCardDelayMs?: number;
  /** Whether an approval is settled (no longer reversible). Default: after the next local midnight (Africa/Tunis). */
  settlementCutoff?: (approvedAt: Date, now: Date) => boolean;
  /** When set, BPC-style callbacks are sent here (GET ?mdOrder=&orderNumber=&operation=&status=). */
  callbackUrl?: string;
  /** How often time-driven changes are checked for callbacks. Default 1 s. */
  callbackSweepMs?: number;
  logger?: Logger;
  fetchImpl?: typeof fetch;
}

export interface ListeningSimulator {
  url: string;
  close(): Promise<void>;
}

export interface EpgSimulator {
  /** Serves paths under /epg/ (404 for anything else). Give it the raw request, body unread. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Its own HTTP server (also answering /healthz and /readyz). */
  listen(port: number, host?: string): Promise<ListeningSimulator>;
  /** The acquirer's book, for tests and support: amounts, refunds, states. No card data. */
  ledger(): LedgerEntry[];
  /** Stops the callback sweeper (listen's close does it too). */
  stop(): void;
}

const MINUTE = 60_000;

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function pathOf(req: IncomingMessage): string {
  const raw = req.url ?? "/";
  const q = raw.indexOf("?");
  return q === -1 ? raw : raw.slice(0, q);
}

export function createEpgSimulator(options: EpgSimulatorOptions = {}): EpgSimulator {
  const clock = options.clock ?? systemClock;
  const book = new SimulatorOrderBook({
    clock,
    orderTimeoutMs: options.orderTimeoutMs ?? 20 * MINUTE,
    lateApprovalDelayMs: options.lateApprovalDelayMs ?? 5_000,
    settlementCutoff:
      options.settlementCutoff ?? ((approvedAt, now) => settledAfterLocalMidnight(approvedAt, now)),
  });
  const credentials = new TerminalCredentials(options.credentials ?? DEFAULT_SIMULATOR_CREDENTIALS);
  let listeningUrl: string | undefined;

  const notifier =
    options.callbackUrl === undefined
      ? undefined
      : createCallbackNotifier({
          callbackUrl: options.callbackUrl,
          ...(options.fetchImpl === undefined ? {} : { fetchImpl: options.fetchImpl }),
          ...(options.logger === undefined ? {} : { logger: options.logger }),
        });
  const flushNotifications = () => {
    const queued = book.takeNotifications();
    if (notifier !== undefined) for (const n of queued) notifier.send(n);
  };
  // Time moves orders on its own (payment window, late approval): look now and then, so their
  // callbacks go out even when nobody asks about the order.
  const sweeper =
    notifier === undefined
      ? undefined
      : setInterval(() => {
          book.refreshAll();
          flushNotifications();
        }, options.callbackSweepMs ?? 1_000);
  sweeper?.unref();

  const publicBase = (req: IncomingMessage): string =>
    (options.publicUrl ?? listeningUrl ?? `http://${req.headers.host ?? "127.0.0.1"}`).replace(/\/+$/, "");

  const protocol = createProtocolHandler({
    book,
    credentials,
    timeoutCardDelayMs: options.timeoutCardDelayMs ?? 20_000,
    formUrlFor: (req, id) => `${publicBase(req)}${PAYMENT_PATH}${encodeURIComponent(id)}`,
    afterChange: flushNotifications,
  });
  const cardPage = createCardPageHandler(book, clock);

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = pathOf(req);
    if (path.startsWith(REST_PATH)) {
      await protocol(req, res, path.slice(REST_PATH.length));
      return;
    }
    const id = path.startsWith(PAYMENT_PATH) ? safeDecode(path.slice(PAYMENT_PATH.length)) : undefined;
    if (id !== undefined && id !== "" && !id.includes("/")) {
      if (req.method !== "GET" && req.method !== "HEAD" && req.method !== "POST") {
        sendText(res, 405, "Method not allowed\n", { allow: "GET, HEAD, POST" });
        return;
      }
      await cardPage(req, res, id);
      flushNotifications();
      return;
    }
    sendText(res, 404, "Not found\n");
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    route(req, res).catch(() => {
      // Nothing about the request is logged (it may carry card data); the buyer gets a plain error.
      if (!res.headersSent) sendText(res, 500, "Internal error\n");
      else res.destroy();
    });
  }

  return {
    handle,
    ledger: () => book.ledger(),
    stop: () => clearInterval(sweeper),
    async listen(port: number, host = "127.0.0.1"): Promise<ListeningSimulator> {
      const server = createServer((req, res) => {
        const path = pathOf(req);
        if (path === "/healthz" || path === "/readyz") {
          sendText(res, 200, "ok\n");
          return;
        }
        handle(req, res);
      });
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          resolve();
        });
      });
      const address = server.address() as AddressInfo;
      const hostForUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;
      const url = `http://${hostForUrl}:${address.port}`;
      listeningUrl = url;
      return {
        url,
        close: () =>
          new Promise<void>((resolve, reject) => {
            clearInterval(sweeper);
            server.close((err) => (err ? reject(err) : resolve()));
            // Held status calls (timeout card) and idle keep-alive sockets must not delay shutdown.
            server.closeAllConnections();
          }),
      };
    },
  };
}
