import { randomBase62 } from "@gateway/platform";
import type { ExchangeRateProvider, TerminalProvider } from "../../src/app/ports.js";
import { newSession } from "../../src/domain/new-session.js";
import type { AccountScope, Session } from "../../src/domain/session.js";
import type { CreateSessionInput } from "../../src/domain/validation/create-session-input.js";
import { validateCreateSession } from "../../src/domain/validation/validate-create-session.js";

export const LIFETIMES = { sessionLifetimeMs: 24 * 3_600_000, checkoutLinkLifetimeMs: 30 * 60_000 };
export const SETTINGS = { publicBaseUrl: "https://pay.example.test", ...LIFETIMES };

/** A merchant of its own per test, so tests sharing one store never see each other's data. */
export function newScope(livemode = false): AccountScope {
  return { merchantId: `mer_${randomBase62(16)}`, livemode };
}

export function createInput(
  scope: AccountScope,
  overrides: Partial<CreateSessionInput> = {},
): CreateSessionInput {
  return {
    scope,
    merchantReference: `order-${randomBase62(10)}`,
    amount: "125.500",
    items: [],
    ...overrides,
  };
}

/** A stored-shape session built through the real domain rules. */
export function sessionFixture(
  scope: AccountScope,
  overrides: Partial<CreateSessionInput> = {},
  now = new Date(Date.UTC(2026, 0, 1)),
): Session {
  const input = createInput(scope, overrides);
  const result = validateCreateSession(input, "3.400000");
  if (!result.ok) throw new Error(`fixture is invalid: ${JSON.stringify(result.violations)}`);
  return newSession(scope, result.value, now, LIFETIMES);
}

/** Rates by currency for every merchant; counts lookups so tests can see when one happened. */
export function fakeRates(rates: Record<string, string>): ExchangeRateProvider & { lookups: number } {
  const provider = {
    lookups: 0,
    async rateFor(_merchantId: string, currency: string) {
      provider.lookups++;
      return rates[currency];
    },
  };
  return provider;
}

/** Every merchant has an active terminal: for tests of the create, which asks before storing. */
export const ACTIVE_TERMINALS: TerminalProvider = {
  async terminalFor() {
    return { baseUrl: "http://127.0.0.1:9/epg/rest", username: "u", password: "p" };
  },
};
