import { expect } from "vitest";
import type { ReceivedWebhook, WebhookReceiver } from "./webhook-receiver.js";

/** The webhooks a receiver got for one event type about one session, in arrival order. */
export function eventsOf(receiver: WebhookReceiver, sessionId: string, event: string): ReceivedWebhook[] {
  return receiver.requests.filter((r) => r.json?.data?.id === sessionId && r.json?.event === event);
}

/** Waits for the first `event` about the session and returns it. */
export async function waitForEvent(
  receiver: WebhookReceiver,
  sessionId: string,
  event: string,
  timeoutMs = 20_000,
): Promise<ReceivedWebhook> {
  const [first] = await receiver.waitForRequests(
    1,
    (r) => r.json?.data?.id === sessionId && r.json?.event === event,
    timeoutMs,
  );
  return first!;
}

/**
 * Asserts the session got `event` exactly once: one request and one event id (a second request
 * with the same id would be a retry, and the receiver never fails a delivery), correctly
 * signed, with the 6.2 envelope.
 */
export function expectExactlyOneEvent(
  receiver: WebhookReceiver,
  sessionId: string,
  event: string,
): ReceivedWebhook {
  const got = eventsOf(receiver, sessionId, event);
  const ids = got.map((r) => r.webhookId);
  expect(ids, `${event} deliveries for ${sessionId}`).toHaveLength(1);
  expect(new Set(ids).size, `${event} event ids for ${sessionId}`).toBe(1);
  const r = got[0]!;
  expect(r.webhookId).toMatch(/^evt_/);
  expect(r.headers["x-service-event"]).toBe(event);
  expect(r.signature, `signature of ${event} for ${sessionId}`).toMatchObject({
    ok: true,
    webhookId: r.webhookId,
  });
  expect(r.json).toMatchObject({ id: r.webhookId, event, data: { id: sessionId } });
  expect(new Date(r.json.created_at).toISOString()).toBe(r.json.created_at);
  return r;
}
