import { waitFor } from "@gateway/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { countingStores } from "../support/counting-stores.js";
import { type DeliveryHarness, deliveryHarness } from "../support/delivery-harness.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the dispatcher's polls when there is nothing to send", () => {
  let h: DeliveryHarness | undefined;
  afterEach(async () => {
    await h?.dispatcher.stop();
    await h?.close();
  });

  it("when looks keep finding nothing, then the polls space out to a few intervals, and a wake looks at once", async () => {
    const { stores, looks } = countingStores();
    h = await deliveryHarness({ stores, settings: { pollIntervalMs: 40 } });
    h.dispatcher.start();
    await sleep(1_500);
    // Every 40 ms would be about 38 looks; spaced out (40, 80, 160, then 200 ms) about 10.
    const idle = looks();
    expect(idle).toBeGreaterThanOrEqual(4);
    expect(idle).toBeLessThanOrEqual(14);
    // At once: well before the next poll, due up to 200 ms from now.
    h.dispatcher.wake();
    await waitFor(() => looks() > idle, { timeoutMs: 150, intervalMs: 2, message: "a look on wake" });
  });
});
