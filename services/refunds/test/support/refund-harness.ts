import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type Acquirer,
  createEpgAcquirer,
  DEFAULT_SIMULATOR_CREDENTIALS,
  simulatorTerminalBaseUrl,
  type Terminal,
} from "@gateway/acquirer";
import { createEpgSimulator, type EpgSimulator, type ListeningSimulator } from "@gateway/epg-simulator";
import { ManualClock, newId, randomBase62 } from "@gateway/platform";
import { InMemoryBalanceLedger } from "../../src/adapters/memory/in-memory-balance-ledger.js";
import { InMemoryPaidSessionLookup } from "../../src/adapters/memory/in-memory-paid-session-lookup.js";
import { InMemoryPaidSessionStore } from "../../src/adapters/memory/in-memory-paid-session-store.js";
import { InMemoryRefundRepository } from "../../src/adapters/memory/in-memory-refund-repository.js";
import type { RefundDeps } from "../../src/app/refund-deps.js";
import type { AccountScope } from "../../src/domain/refund.js";
import { protoRefundEventEncoder } from "../../src/rpc/refund-event-encoder.js";
import { captureLogger } from "./capture-logger.js";
import { payOnCardPage } from "./card-page.js";

/** The real EPG simulator over HTTP, the real EPG adapter, and in-memory refunds stores. */
export interface RefundHarness {
  simulator: EpgSimulator;
  listening: ListeningSimulator;
  terminal: Terminal;
  acquirer: Acquirer;
  sessions: InMemoryPaidSessionLookup;
  paidSessions: InMemoryPaidSessionStore;
  refunds: InMemoryRefundRepository;
  deps: RefundDeps;
  /** What the use cases logged. */
  logLines: string[];
  /** Whether the simulator considers approvals settled (no longer reversible). */
  setSettled(settled: boolean): void;
  /** Registers an order on the simulator, pays it on its card page, and tells the lookup a succeeded session. */
  paidSession(
    amountMinor: bigint,
    opts?: { settled?: boolean },
  ): Promise<{ scope: AccountScope; sessionId: string; acquirerOrderId: string }>;
  close(): Promise<void>;
}

export async function startRefundHarness(): Promise<RefundHarness> {
  let settled = false;
  const simulator = createEpgSimulator({ settlementCutoff: () => settled });
  const listening = await simulator.listen(0, "127.0.0.1");
  const [credential] = DEFAULT_SIMULATOR_CREDENTIALS;
  const terminal: Terminal = {
    baseUrl: simulatorTerminalBaseUrl(listening.url),
    username: credential!.username,
    password: credential!.password,
  };
  const acquirer = createEpgAcquirer({ timeoutMs: 5_000 });
  const sessions = new InMemoryPaidSessionLookup();
  const paidSessions = new InMemoryPaidSessionStore();
  const refunds = new InMemoryRefundRepository();
  const { logger, lines } = captureLogger();
  const deps: RefundDeps = {
    sessions,
    paidSessions,
    terminals: { terminalFor: async () => terminal },
    ledger: new InMemoryBalanceLedger(),
    refunds,
    acquirer,
    events: protoRefundEventEncoder,
    clock: new ManualClock(),
    newId,
    logger,
  };
  return {
    simulator,
    listening,
    terminal,
    acquirer,
    sessions,
    paidSessions,
    refunds,
    deps,
    logLines: lines,
    setSettled: (value) => {
      settled = value;
    },
    async paidSession(amountMinor, opts = {}) {
      const order = await acquirer.registerOrder({
        terminal,
        orderNumber: `T-${randomBase62(6)}`,
        amountMinor,
        currencyNumeric: "788",
        returnUrl: "http://127.0.0.1:9/return",
        failUrl: "http://127.0.0.1:9/fail",
        sessionTimeoutSecs: 600,
      });
      const paid = await payOnCardPage(order.formUrl, { number: "4242424242424242" });
      if (paid.orderId !== order.acquirerOrderId) throw new Error("the card page returned another order");
      const scope = { merchantId: newId("mer"), livemode: false };
      const sessionId = newId("ps");
      sessions.put(scope, sessionId, {
        status: "SUCCEEDED",
        amountMinor,
        currency: "TND",
        acquirerOrderId: order.acquirerOrderId,
        merchantReference: `order-${sessionId}`,
        orderNumber: `GW-${randomBase62(6)}`,
        webhookUrl: "",
        ...(opts.settled === undefined ? {} : { settled: opts.settled }),
      });
      return { scope, sessionId, acquirerOrderId: order.acquirerOrderId };
    },
    async close() {
      await listening.close();
    },
  };
}

/** An HTTP server that accepts requests and never answers: an acquirer that times out. */
export async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const open = new Set<import("node:http").ServerResponse>();
  const server: Server = createServer((_req, res) => {
    open.add(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
