import { GatewayError } from "@gateway/platform";
import type { Delivery } from "../domain/delivery.js";
import type { DeliveryRepository } from "./ports.js";

const MAX_ROUNDS = 10;

/**
 * Stores a new attempt of an event with the next attempt number (the highest so far + 1). The
 * number is taken by the insert itself: the store's unique (eventId, attemptNumber) lets one of
 * two concurrent writers have it and the other draws again, which holds on MongoDB and FerretDB
 * alike (FerretDB 1.24 does not apply concurrent counter updates atomically, unique inserts it
 * does). When an attempt with the same id is already there (a repeated write after a crash),
 * that one is returned instead.
 */
export async function insertNextAttempt(
  deliveries: DeliveryRepository,
  eventId: string,
  build: (attemptNumber: number) => Delivery,
  /** The event's latest attempt, when the caller has just read it: saves the first read. */
  knownLatest?: Delivery,
): Promise<{ delivery: Delivery; inserted: boolean }> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const latest =
      round === 0 && knownLatest !== undefined ? knownLatest : await deliveries.latestForEvent(eventId);
    const candidate = build((latest?.attemptNumber ?? 0) + 1);
    if ((await deliveries.insert(candidate)) === "inserted") {
      // A hint for bulk resends; losing it (the store went away just now) costs them time, not correctness.
      await deliveries.markSuperseded(eventId, candidate.attemptNumber).catch(() => undefined);
      return { delivery: candidate, inserted: true };
    }
    const existing = await deliveries.findById(candidate.id);
    if (existing) return { delivery: existing, inserted: false };
  }
  throw new GatewayError(
    "SERVICE_UNAVAILABLE",
    "Too many concurrent attempts of one webhook event; try again.",
    { metadata: { event_id: eventId } },
  );
}
