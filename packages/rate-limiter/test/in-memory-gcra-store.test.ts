import { ManualClock } from "@gateway/platform";
import { InMemoryGcraStore } from "../src/index.js";
import { describeGcraStoreContract } from "./gcra-store.contract.js";

describeGcraStoreContract("InMemoryGcraStore", {
  shortTtlMs: 1_000,
  async open() {
    const clock = new ManualClock();
    return {
      store: new InMemoryGcraStore({ clock }),
      async passTime(ms) {
        clock.advance(ms);
      },
      async close() {},
    };
  },
});
