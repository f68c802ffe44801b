import { ManualClock } from "@gateway/platform";
import { verifyStandardWebhook, verifyWebhook } from "@gateway/webhook-signature";
import { createSigningWebhookSender } from "../../src/adapters/delivery/signing-webhook-sender.js";
import {
  type AddressPolicy,
  createHttpDeliverer,
  type HttpDeliverer,
} from "../../src/adapters/http/index.js";
import { createMemoryWebhooksStores } from "../../src/adapters/memory/create-memory-webhooks-stores.js";
import { DeliveryDispatcher } from "../../src/app/delivery-dispatcher.js";
import type { WebhooksStores } from "../../src/app/ports.js";
import { recordSessionEvent } from "../../src/app/record-session-event.js";
import { rotateSecret, setEndpoint } from "../../src/app/webhook-endpoints.js";
import type { WebhooksSettings } from "../../src/app/webhooks-settings.js";
import type { AccountScope } from "../../src/domain/account-scope.js";
import type { SessionEventFacts } from "../../src/domain/webhook-event.js";
import { type ReceivedRequest, startReceiver, type TestReceiver } from "../http/test-receiver.js";
import { captureLogger } from "./silent-logger.js";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export interface DeliveryHarness {
  clock: ManualClock;
  stores: WebhooksStores;
  dispatcher: DeliveryDispatcher;
  receiver: TestReceiver;
  settings: WebhooksSettings;
  logLines: string[];
  record(facts: SessionEventFacts): ReturnType<typeof recordSessionEvent>;
  /** Sets the account endpoint to the receiver (or `url`); returns the secret created. */
  setEndpoint(scope: AccountScope, url?: string): Promise<string | undefined>;
  rotate(scope: AccountScope): Promise<string>;
  /** verifyWebhook / verifyStandardWebhook against the manual clock. */
  verifies(request: ReceivedRequest, secrets: string | string[]): boolean;
  verifiesStandard(request: ReceivedRequest, secrets: string | string[]): boolean;
  history(eventId: string): Promise<Array<import("../../src/domain/delivery.js").Delivery>>;
  close(): Promise<void>;
}

/** The delivery path in one process: memory stores, the real HTTP deliverer, a local receiver, a manual clock. */
export async function deliveryHarness(
  o: { settings?: Partial<WebhooksSettings>; policy?: AddressPolicy; stores?: WebhooksStores } = {},
): Promise<DeliveryHarness> {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
  const stores = o.stores ?? createMemoryWebhooksStores();
  const deliverer: HttpDeliverer = createHttpDeliverer(o.policy ?? { allowPrivate: true, allowCidrs: [] });
  const settings: WebhooksSettings = {
    timeoutMs: 2_000,
    retryScheduleMs: [MINUTE, 2 * HOUR, 24 * HOUR],
    secretOverlapMs: 24 * HOUR,
    pollIntervalMs: 1_000,
    concurrency: 4,
    ...o.settings,
  };
  const { logger, lines } = captureLogger();
  const dispatcher = new DeliveryDispatcher({
    stores,
    sender: createSigningWebhookSender(deliverer),
    clock,
    settings,
    logger,
  });
  const receiver = await startReceiver();
  const nowSec = () => Math.floor(clock.now().getTime() / 1000);
  return {
    clock,
    stores,
    dispatcher,
    receiver,
    settings,
    logLines: lines,
    record: (facts) => recordSessionEvent({ stores, clock }, facts),
    async setEndpoint(scope, url = receiver.url) {
      return (await setEndpoint({ endpoints: stores.endpoints, clock }, scope, url)).secret;
    },
    async rotate(scope) {
      return (await rotateSecret({ endpoints: stores.endpoints, clock }, scope, settings.secretOverlapMs))
        .secret;
    },
    verifies: (request, secrets) => verifyWebhook(request.body, request.headers, secrets, { now: nowSec }).ok,
    verifiesStandard: (request, secrets) =>
      verifyStandardWebhook(request.body, request.headers, secrets, { now: nowSec }).ok,
    async history(eventId) {
      const scopeOf = (await stores.events.findById(eventId))!.scope;
      return (await stores.deliveries.list(scopeOf, { eventId }, { limit: 100 })).deliveries;
    },
    async close() {
      await dispatcher.stop({ graceMs: 1_000 });
      deliverer.close();
      await receiver.close();
    },
  };
}
