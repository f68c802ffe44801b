import { connectNats } from "@gateway/platform";
import { natsEndpointChangeNotices } from "../src/adapters/events/nats-endpoint-change-notices.js";
import { endpointChangeNoticesContract } from "./contracts/endpoint-change-notices.contract.js";
import { captureLogger } from "./support/silent-logger.js";

// Two connections stand for two webhooks replicas.
endpointChangeNoticesContract("core NATS", async () => {
  const url = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
  const [one, two] = await Promise.all([
    connectNats(url, "notices-first"),
    connectNats(url, "notices-second"),
  ]);
  return {
    first: natsEndpointChangeNotices(one, captureLogger().logger),
    second: natsEndpointChangeNotices(two, captureLogger().logger),
    // The publisher's round trip puts the notices on the server; the listener's brings them in.
    settle: async () => {
      await one.flush();
      await two.flush();
    },
    close: async () => {
      await Promise.all([one.close(), two.close()]);
    },
  };
});
