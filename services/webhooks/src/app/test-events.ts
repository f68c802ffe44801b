import { GatewayError, newId } from "@gateway/platform";
import type { AccountScope } from "../domain/account-scope.js";
import type { Delivery } from "../domain/delivery.js";
import { TEST_EVENT_TYPE } from "../domain/event-subscriptions.js";
import { firstAttemptId, type RecordEventDeps, recordWebhookEvent } from "./record-event.js";

/**
 * The dashboard's "send a test event": a signed `webhook.test` event to the account's endpoint,
 * delivered, retried, listed and resendable like any other, so a merchant checks its receiver
 * (URL, TLS, signature check) without paying anything. Its `data` has no session, so a receiver
 * that reads `event` never takes it for a payment.
 */
export async function sendTestEvent(
  deps: RecordEventDeps & { wake?: () => void },
  scope: AccountScope,
): Promise<Delivery> {
  const endpoint = await deps.stores.endpoints.find(scope);
  if (!endpoint?.url)
    throw new GatewayError(
      "INVALID_STATE",
      "Set the webhook endpoint's URL first: the test event goes there.",
    );
  const now = deps.clock.now();
  const id = newId("evt");
  const body = JSON.stringify({
    id,
    event: TEST_EVENT_TYPE,
    created_at: now.toISOString(),
    data: { livemode: scope.livemode },
  });
  await recordWebhookEvent(deps, { id, scope, sessionId: "", type: TEST_EVENT_TYPE, occurredAt: now, body });
  deps.wake?.();
  const first = await deps.stores.deliveries.findById(firstAttemptId(id));
  if (!first) throw new Error("the test event's delivery was not queued");
  return first;
}
