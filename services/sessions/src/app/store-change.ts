import { type Session, type SessionChanges, withChanges } from "../domain/session.js";
import type { SessionEvent } from "../domain/session-events.js";
import { contention, MAX_ROUNDS } from "./payment-deps.js";
import type {
  OutboxEvent,
  OutboxSignal,
  SessionEventEncoder,
  SessionRepository,
  UpdateResult,
} from "./ports.js";

export interface StoreChangeDeps {
  repo: SessionRepository;
  encoder: SessionEventEncoder;
  outbox?: OutboxSignal;
}

/**
 * Stores `changes` to `session` (read at its current version) together with the events they
 * emit, in one conditional single-document update: the change and its events are stored
 * together or not at all. Each event carries the session as it is right after the change.
 * The relay is woken when events were stored.
 */
export async function storeChange(
  deps: StoreChangeDeps,
  session: Session,
  changes: SessionChanges,
  events: readonly SessionEvent[] = [],
): Promise<UpdateResult> {
  const last = events.at(-1);
  const withSequence: SessionChanges = last ? { ...changes, lastEventSequence: last.sequence } : changes;
  const after: Session = { ...withChanges(session, withSequence), version: session.version + 1 };
  const outbox: OutboxEvent[] = events.map((event) => ({
    eventId: event.eventId,
    type: event.type,
    sequence: event.sequence,
    occurredAt: event.occurredAt,
    ...deps.encoder.encode(event, after),
  }));
  const result = await deps.repo.updateIf(session, withSequence, outbox);
  if (result.updated && outbox.length > 0) deps.outbox?.wake();
  return result;
}

/** A change decided on the session as stored, with the events it emits. */
export interface DecidedChange {
  changes: SessionChanges;
  events: readonly SessionEvent[];
}

/**
 * Decides a change on `session` and stores it with storeChange; a lost compare-and-set re-reads
 * the session and decides again, at most MAX_ROUNDS times (then CONFLICT). `decide` returns
 * undefined when there is nothing (left) to do. Resolves with the session as stored afterwards
 * and the change that was stored, if any; `session` itself when it is gone.
 */
export async function storeDecidedChange(
  deps: StoreChangeDeps,
  session: Session,
  decide: (current: Session) => DecidedChange | undefined,
): Promise<{ session: Session; stored?: DecidedChange }> {
  let current: Session | undefined = session;
  for (let round = 0; round < MAX_ROUNDS && current; round++) {
    const change = decide(current);
    if (!change) return { session: current };
    const result = await storeChange(deps, current, change.changes, change.events);
    if (result.updated) return { session: result.session, stored: change };
    current = result.current;
  }
  if (!current) return { session };
  throw contention(session.id);
}
