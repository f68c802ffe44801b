import type { Acquirer } from "@gateway/acquirer";
import { type Clock, GatewayError, type Logger } from "@gateway/platform";
import type {
  FeePlanProvider,
  OutboxSignal,
  PaymentObserver,
  SessionEventEncoder,
  SessionRepository,
  TerminalProvider,
} from "./ports.js";

/** What the payment use cases (start, settle) work with. */
export interface PaymentDeps {
  repo: SessionRepository;
  acquirer: Acquirer;
  terminals: TerminalProvider;
  fees: FeePlanProvider;
  encoder: SessionEventEncoder;
  clock: Clock;
  logger: Logger;
  /** Public base of the gateway: the acquirer returns the buyer to `<it>/checkout/return`. */
  publicBaseUrl: string;
  /** Bound on each acquirer call (the adapter's timeout). */
  acquirerTimeoutMs: number;
  /** Pause between the sweeper's re-checks of an unsettled attempt with the acquirer. */
  reconcileIntervalMs: number;
  outbox?: OutboxSignal;
  /** Told of each attempt that ends (metrics). */
  observer?: PaymentObserver;
}

/**
 * Compare-and-set rounds before reporting contention. Each lost round means another request
 * really changed the session, so a few rounds settle any realistic race.
 */
export const MAX_ROUNDS = 5;

export function contention(sessionId: string): GatewayError {
  return new GatewayError("CONFLICT", "The session is being changed by another request; try again.", {
    metadata: { session_id: sessionId },
  });
}

/** Default pause between re-checks of an unsettled attempt with the acquirer. */
export const DEFAULT_RECONCILE_INTERVAL_MS = 60_000;

/**
 * Slack on top of the acquirer timeout before an attempt still INITIATED is taken as
 * interrupted (the process starting it died between storing it and registering the order).
 */
export const REGISTRATION_GRACE_MS = 5_000;

/** When an attempt started at `startedAt` and still INITIATED counts as interrupted. */
export function registrationDeadline(startedAt: Date, acquirerTimeoutMs: number): Date {
  return new Date(startedAt.getTime() + acquirerTimeoutMs + REGISTRATION_GRACE_MS);
}
