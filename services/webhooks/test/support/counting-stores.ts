import { createMemoryWebhooksStores } from "../../src/adapters/memory/create-memory-webhooks-stores.js";
import type { WebhooksStores } from "../../src/app/ports.js";

/** Memory stores whose looks over the queue (claiming, `claimDue`, or only reading, `findDue`) are counted. */
export function countingStores(): { stores: WebhooksStores; looks: () => number } {
  const stores = createMemoryWebhooksStores();
  let looks = 0;
  const deliveries = stores.deliveries;
  const counted = Object.assign(Object.create(deliveries), {
    claimDue: (...args: Parameters<typeof deliveries.claimDue>) => {
      looks++;
      return deliveries.claimDue(...args);
    },
    findDue: (...args: Parameters<typeof deliveries.findDue>) => {
      looks++;
      return deliveries.findDue(...args);
    },
  });
  return { stores: { ...stores, deliveries: counted }, looks: () => looks };
}
