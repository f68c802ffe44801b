import { fromBinary } from "@bufbuild/protobuf";
import { type SessionEvent, SessionEventSchema } from "@gateway/proto";
import type { OutboxStore, PendingOutboxEvent } from "../../src/app/ports.js";

/** The unpublished outbox events of one session, in sequence order, with their decoded payloads. */
export async function pendingEventsOf(
  store: OutboxStore,
  sessionId: string,
): Promise<Array<PendingOutboxEvent & { decoded: SessionEvent }>> {
  const pending = await store.findPendingOutbox(10_000);
  return pending
    .filter((e) => e.sessionId === sessionId)
    .map((e) => ({ ...e, decoded: fromBinary(SessionEventSchema, e.payload) }));
}
