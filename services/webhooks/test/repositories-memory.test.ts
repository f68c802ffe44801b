import { systemClock } from "@gateway/platform";
import { InMemoryDeliveryRepository } from "../src/adapters/memory/in-memory-delivery-repository.js";
import { InMemoryEndpointChangeHub } from "../src/adapters/memory/in-memory-endpoint-change-notices.js";
import { InMemoryEndpointRepository } from "../src/adapters/memory/in-memory-endpoint-repository.js";
import { InMemoryWebhookEventRepository } from "../src/adapters/memory/in-memory-event-repository.js";
import { rememberEndpoints } from "../src/app/remembered-endpoints.js";
import { deliveryRepositoryContract } from "./contracts/delivery-repository.contract.js";
import { endpointRepositoryContract } from "./contracts/endpoint-repository.contract.js";
import { eventRepositoryContract } from "./contracts/event-repository.contract.js";

deliveryRepositoryContract("in memory", async () => ({
  repo: new InMemoryDeliveryRepository(),
  close: async () => {},
}));
eventRepositoryContract("in memory", async () => new InMemoryWebhookEventRepository());
endpointRepositoryContract("in memory", async () => new InMemoryEndpointRepository());

// Remembering endpoints must keep every promise the store makes.
endpointRepositoryContract("in memory, remembered", async () =>
  rememberEndpoints(new InMemoryEndpointRepository(), {
    clock: systemClock,
    notices: new InMemoryEndpointChangeHub().replica(),
  }),
);
