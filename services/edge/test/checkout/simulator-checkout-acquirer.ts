import { type Acquirer, createEpgAcquirer, type Terminal } from "@gateway/acquirer";
import { currencyInfo, D, toMinorUnits } from "@gateway/money";
import type { FakeCheckoutAcquirer, FakeOrderOutcome } from "../fakes/fake-sessions-service.js";

/** The simulator's default terminal, reached at `baseUrl` (simulatorTerminalBaseUrl of where it is served). */
export function simulatorTerminal(baseUrl: string): Terminal {
  return { baseUrl, username: "sim-merchant", password: "sim-password" };
}

/**
 * The fake sessions service's acquirer, speaking the real EPG protocol (register.do,
 * getOrderStatusExtended.do) through @gateway/acquirer's adapter: with the simulator mounted
 * on the edge, a test runs the whole buyer journey over HTTP, card page included.
 */
export function createSimulatorCheckoutAcquirer(
  terminal: Terminal,
  acquirer: Acquirer = createEpgAcquirer({ timeoutMs: 5_000 }),
): FakeCheckoutAcquirer {
  return {
    async registerOrder(order) {
      const currency = currencyInfo(order.currency);
      if (!currency) throw new Error(`unknown currency ${order.currency}`);
      return acquirer.registerOrder({
        terminal,
        orderNumber: order.orderNumber,
        amountMinor: toMinorUnits(D(order.amount), order.currency),
        currencyNumeric: currency.numeric,
        returnUrl: order.returnUrl,
        failUrl: order.failUrl,
        ...(order.description === "" ? {} : { description: order.description }),
        sessionTimeoutSecs: 1200,
        language: order.language,
      });
    },
    async orderOutcome(acquirerOrderId): Promise<FakeOrderOutcome> {
      const status = await acquirer.getOrderStatus({ terminal, acquirerOrderId });
      switch (status.state) {
        case "APPROVED":
        case "DEPOSITED":
          return {
            status: "SUCCEEDED",
            cardBrand: status.card?.brand ?? "unknown",
            lastFour: status.card?.lastFour ?? "",
          };
        case "DECLINED":
          return { status: "FAILED", failureCode: status.failureCode ?? "card_declined" };
        case "ABANDONED":
          return { status: "FAILED", failureCode: "session_timeout" };
        default:
          return { status: "PENDING" };
      }
    },
  };
}
