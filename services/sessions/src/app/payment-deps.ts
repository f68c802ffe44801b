import type { Acquirer } from "@gateway/acquirer";
import { GatewayError, type Clock, type Logger } from "@gateway/platform";
import type { FeePlanProvider, OutboxSignal, SessionEventEncoder, SessionRepository, TerminalProvider } from "./ports.js";

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
  outbox?: OutboxSignal;
}

/**
 * Compare-and-set rounds before reporting contention. Each lost round means another request
 * really changed the session, so a few rounds settle any realistic race.
 */
export const MAX_ROUNDS = 5;

export function contention(sessionId: string): GatewayError {
  return new GatewayError("CONFLICT", "The session is being changed by another request; try again.", { metadata: { session_id: sessionId } });
}
