import { GatewayError, type Clock } from "@gateway/platform";
import { decide } from "../domain/session-state-machine.js";
import type { AccountScope, Session } from "../domain/session.js";
import type { SessionRepository } from "./ports.js";

/** Compare-and-set rounds before reporting contention; each lost round means a real change. */
const MAX_ROUNDS = 5;

/**
 * Cancels a session (CREATED or PENDING -> CANCELED; CANCELED is returned unchanged). Read,
 * decide with the state machine, then write only if nobody changed the session in between;
 * a lost race re-reads and decides again, so concurrent cancels all see CANCELED and a cancel
 * racing a payment never overwrites it.
 */
export async function cancelSession(repo: SessionRepository, clock: Clock, scope: AccountScope, id: string): Promise<Session> {
  let session = id === "" ? undefined : await repo.findById(scope, id);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (!session) throw GatewayError.notFound("session", id);
    const decision = decide(session, "cancel", clock.now());
    if (!decision.changed) return session;
    const result = await repo.updateIf(scope, id, session.version, decision.changes);
    if (result.updated) return result.session;
    session = result.current;
  }
  throw new GatewayError("CONFLICT", "The session is being changed by another request; try again.", { metadata: { session_id: id } });
}
