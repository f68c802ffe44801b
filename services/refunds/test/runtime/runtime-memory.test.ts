import { InMemoryEventBus } from "@gateway/platform";
import { InMemoryPaidSessionStore } from "../../src/adapters/memory/in-memory-paid-session-store.js";
import { InMemoryRefundRepository } from "../../src/adapters/memory/in-memory-refund-repository.js";
import { runtimeScenarios } from "./runtime-scenarios.js";

// Embedded mode: the bus shared in process with sessions and webhooks, and memory stores.
runtimeScenarios("in-memory bus and stores", async () => {
  const bus = new InMemoryEventBus({ retryOnErrorMs: 50 });
  return {
    bus,
    refunds: new InMemoryRefundRepository(),
    paidSessions: new InMemoryPaidSessionStore(),
    subjectPrefix: "gateway.events",
    durable: "refunds",
    close: () => bus.close(),
  };
});
