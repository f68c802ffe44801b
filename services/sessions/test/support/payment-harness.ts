import { createEpgAcquirer, simulatorTerminalBaseUrl, type Terminal } from "@gateway/acquirer";
import { createEpgSimulator, type EpgSimulatorOptions } from "@gateway/epg-simulator";
import { createLogger, type Logger, ManualClock } from "@gateway/platform";
import { createMemorySessionRepository } from "../../src/adapters/memory/in-memory-session-repository.js";
import { createSession } from "../../src/app/create-session.js";
import type { PaymentDeps } from "../../src/app/payment-deps.js";
import type { SessionRepository } from "../../src/app/ports.js";
import type { FeePlan } from "../../src/domain/fees.js";
import type { AccountScope, Session } from "../../src/domain/session.js";
import type { CreateSessionInput } from "../../src/domain/validation/create-session-input.js";
import { createProtoSessionEventEncoder } from "../../src/rpc/session-event-encoder.js";
import { ACTIVE_TERMINALS, createInput, fakeRates, LIFETIMES, newScope, SETTINGS } from "./fixtures.js";
import { fakeFees, fakeTerminals } from "./payment-fakes.js";

export interface PaymentHarnessOptions {
  repo?: SessionRepository;
  simulator?: EpgSimulatorOptions;
  acquirerTimeoutMs?: number;
  reconcileIntervalMs?: number;
  feePlan?: FeePlan;
  logger?: Logger;
}

export interface PaymentHarness {
  deps: PaymentDeps;
  repo: SessionRepository;
  clock: ManualClock;
  terminal: Terminal;
  terminals: ReturnType<typeof fakeTerminals>;
  fees: ReturnType<typeof fakeFees>;
  /** Count of wake-ups the use cases sent the outbox relay. */
  wakes(): number;
  newSession(overrides?: Partial<CreateSessionInput>, scope?: AccountScope): Promise<Session>;
  close(): Promise<void>;
}

/**
 * The payment use cases against the real EPG simulator over HTTP, through the real EPG
 * adapter, with the simulator's test terminal as every merchant's terminal. The gateway's
 * clock is manual (session and link lifetimes); the simulator keeps real time.
 */
export async function startPaymentHarness(o: PaymentHarnessOptions = {}): Promise<PaymentHarness> {
  const simulator = createEpgSimulator(o.simulator);
  const server = await simulator.listen(0);
  const terminal: Terminal = {
    baseUrl: simulatorTerminalBaseUrl(server.url),
    username: "sim-merchant",
    password: "sim-password",
  };
  const repo = o.repo ?? createMemorySessionRepository();
  const clock = new ManualClock(Date.now());
  const terminals = fakeTerminals(terminal);
  const fees = fakeFees({}, o.feePlan ?? { percent: "2.5", fixedMinor: 250n });
  let wakes = 0;
  const acquirerTimeoutMs = o.acquirerTimeoutMs ?? 5_000;
  const deps: PaymentDeps = {
    repo,
    acquirer: createEpgAcquirer({ timeoutMs: acquirerTimeoutMs }),
    terminals,
    fees,
    encoder: createProtoSessionEventEncoder(SETTINGS.publicBaseUrl),
    clock,
    logger: o.logger ?? createLogger({ service: "sessions-test", level: "silent" }),
    publicBaseUrl: SETTINGS.publicBaseUrl,
    acquirerTimeoutMs,
    reconcileIntervalMs: o.reconcileIntervalMs ?? 60_000,
    outbox: { wake: () => void wakes++ },
  };
  return {
    deps,
    repo,
    clock,
    terminal,
    terminals,
    fees,
    wakes: () => wakes,
    async newSession(overrides = {}, scope = newScope()) {
      const { session } = await createSession(
        {
          repo,
          rates: fakeRates({ EUR: "3.400000" }),
          terminals: ACTIVE_TERMINALS,
          clock,
          lifetimes: LIFETIMES,
        },
        createInput(scope, overrides),
      );
      return session;
    },
    async close() {
      await server.close();
      simulator.stop();
    },
  };
}

/** The token of the session's current checkout link. */
export function tokenOf(session: Session): string {
  const link = session.checkoutLinks.at(-1);
  if (!link) throw new Error(`session ${session.id} has no checkout link`);
  return link.token;
}
