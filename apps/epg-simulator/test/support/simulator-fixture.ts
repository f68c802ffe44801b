import { randomBytes } from "node:crypto";
import {
  type Acquirer,
  type RegisteredOrder,
  simulatorTerminalBaseUrl,
  type Terminal,
} from "@gateway/acquirer";
import { GatewayError } from "@gateway/platform";
import {
  createEpgSimulator,
  type EpgSimulator,
  type EpgSimulatorOptions,
  type ListeningSimulator,
} from "../../src/index.js";

export const RETURN_URL = "https://shop.example/return";
export const FAIL_URL = "https://shop.example/fail";

export interface RunningSimulator {
  simulator: EpgSimulator;
  server: ListeningSimulator;
  terminal: Terminal;
}

export async function startSimulator(options: EpgSimulatorOptions = {}): Promise<RunningSimulator> {
  const simulator = createEpgSimulator(options);
  const server = await simulator.listen(0);
  const terminal = {
    baseUrl: simulatorTerminalBaseUrl(server.url),
    username: "sim-merchant",
    password: "sim-password",
  };
  return { simulator, server, terminal };
}

export function orderNumber(): string {
  return `T-${randomBytes(4).toString("hex")}`;
}

export function registerOrder(
  acquirer: Acquirer,
  terminal: Terminal,
  overrides: {
    orderNumber?: string;
    amountMinor?: bigint;
    sessionTimeoutSecs?: number;
    language?: string;
  } = {},
): Promise<RegisteredOrder> {
  return acquirer.registerOrder({
    terminal,
    orderNumber: overrides.orderNumber ?? orderNumber(),
    amountMinor: overrides.amountMinor ?? 34_000n,
    currencyNumeric: "788",
    returnUrl: RETURN_URL,
    failUrl: FAIL_URL,
    description: "Order in the test shop",
    sessionTimeoutSecs: overrides.sessionTimeoutSecs ?? 1200,
    ...(overrides.language === undefined ? {} : { language: overrides.language }),
  });
}

/** The GatewayError a call fails with (fails the test if it does not fail that way). */
export async function gatewayErrorOf(call: Promise<unknown>): Promise<GatewayError> {
  try {
    await call;
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw new Error(`expected a GatewayError, got ${String(err)}`);
  }
  throw new Error("expected the call to fail, it succeeded");
}

/** JSON with bigints as strings, to search whole objects for card data. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}
