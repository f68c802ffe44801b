import { InMemoryEndpointChangeHub } from "../src/adapters/memory/in-memory-endpoint-change-notices.js";
import { endpointChangeNoticesContract } from "./contracts/endpoint-change-notices.contract.js";

endpointChangeNoticesContract("in process", async () => {
  const hub = new InMemoryEndpointChangeHub();
  return {
    first: hub.replica(),
    second: hub.replica(),
    settle: async () => {},
    close: async () => {},
  };
});
