import type { Acquirer, Terminal } from "@gateway/acquirer";
import { type Clock, createLogger, GatewayError } from "@gateway/platform";
import type { PaymentDeps } from "../../src/app/payment-deps.js";
import type {
  FeePlanProvider,
  MerchantDirectory,
  SessionRepository,
  TerminalProvider,
} from "../../src/app/ports.js";
import { type FeePlan, ZERO_FEE_PLAN } from "../../src/domain/fees.js";
import type { AccountScope } from "../../src/domain/session.js";
import { createProtoSessionEventEncoder } from "../../src/rpc/session-event-encoder.js";

/**
 * Terminals by merchant, as accounts would resolve them. A merchant without an entry gets
 * `fallback`; an entry may be a GatewayError reason to fail with instead.
 */
export function fakeTerminals(fallback?: Terminal): TerminalProvider & {
  set(
    merchantId: string,
    value: Terminal | "NO_TERMINAL_CONFIGURED" | "TERMINAL_INACTIVE" | "SERVICE_UNAVAILABLE",
  ): void;
  lookups: AccountScope[];
} {
  const byMerchant = new Map<
    string,
    Terminal | "NO_TERMINAL_CONFIGURED" | "TERMINAL_INACTIVE" | "SERVICE_UNAVAILABLE"
  >();
  const lookups: AccountScope[] = [];
  return {
    lookups,
    set(merchantId, value) {
      byMerchant.set(merchantId, value);
    },
    async terminalFor(scope) {
      lookups.push(scope);
      const entry = byMerchant.get(scope.merchantId) ?? fallback ?? "NO_TERMINAL_CONFIGURED";
      if (entry === "NO_TERMINAL_CONFIGURED")
        throw new GatewayError(entry, "The account has no acquirer terminal configured.");
      if (entry === "TERMINAL_INACTIVE")
        throw new GatewayError(entry, "The account's acquirer terminal is inactive.");
      if (entry === "SERVICE_UNAVAILABLE")
        throw new GatewayError(entry, "A gateway dependency is temporarily unavailable.");
      return entry;
    },
  };
}

export function fakeFees(
  plans: Record<string, FeePlan> = {},
  fallback: FeePlan = ZERO_FEE_PLAN,
): FeePlanProvider & { lookups: number } {
  const provider = {
    lookups: 0,
    async feePlanFor(merchantId: string) {
      provider.lookups++;
      return plans[merchantId] ?? fallback;
    },
  };
  return provider;
}

export function fakeMerchants(names: Record<string, string> = {}, fallback = "Test Shop"): MerchantDirectory {
  return {
    async merchantName(merchantId) {
      return names[merchantId] ?? fallback;
    },
  };
}

/** An acquirer no test should reach: every call fails the test loudly. */
export const unreachableAcquirer: Acquirer = {
  registerOrder: () => Promise.reject(new Error("the acquirer was not expected to be called")),
  getOrderStatus: () => Promise.reject(new Error("the acquirer was not expected to be called")),
  refund: () => Promise.reject(new Error("the acquirer was not expected to be called")),
  reverse: () => Promise.reject(new Error("the acquirer was not expected to be called")),
};

/** Payment dependencies around `repo` whose acquirer is unreachable (cancel, sweeps without a payment). */
export function offlinePaymentDeps(repo: SessionRepository, clock: Clock): PaymentDeps {
  return {
    repo,
    acquirer: unreachableAcquirer,
    terminals: fakeTerminals({ baseUrl: "http://127.0.0.1:9/epg/rest", username: "u", password: "p" }),
    fees: fakeFees(),
    encoder: createProtoSessionEventEncoder("https://pay.example.test"),
    clock,
    logger: createLogger({ service: "sessions-test", level: "silent" }),
    publicBaseUrl: "https://pay.example.test",
    acquirerTimeoutMs: 1_000,
    reconcileIntervalMs: 60_000,
  };
}
