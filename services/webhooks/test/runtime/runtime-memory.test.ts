import { InMemoryEventBus } from "@gateway/platform";
import { createMemoryWebhooksStores } from "../../src/adapters/memory/create-memory-webhooks-stores.js";
import { runtimeScenarios } from "./runtime-scenarios.js";

// Embedded mode: the bus the sessions relay publishes on, shared in process, and memory stores.
runtimeScenarios("in-memory bus and stores", async () => {
  const bus = new InMemoryEventBus({ retryOnErrorMs: 50 });
  return {
    bus,
    stores: createMemoryWebhooksStores(),
    subjectPrefix: "gateway.events",
    durable: "webhooks",
    close: () => bus.close(),
  };
});
