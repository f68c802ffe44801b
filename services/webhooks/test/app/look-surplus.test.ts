import { waitFor } from "@gateway/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { countingStores } from "../support/counting-stores.js";
import { type DeliveryHarness, deliveryHarness } from "../support/delivery-harness.js";
import { eventFacts, newScope } from "../support/fixtures.js";

describe("a backlog of due attempts", () => {
  let h: DeliveryHarness | undefined;
  afterEach(async () => {
    await h?.dispatcher.stop();
    await h?.close();
  });

  it("when a look finds more due than it has slots, then the rest is claimed by id: a few looks for the whole backlog, each attempt sent once", async () => {
    const { stores, looks } = countingStores();
    h = await deliveryHarness({ stores, settings: { concurrency: 4, pollIntervalMs: 60_000 } });
    const scope = newScope();
    await h.setEndpoint(scope);
    const events = Array.from({ length: 120 }, () => eventFacts("session.succeeded", { scope }));
    for (const e of events) await h.record(e);

    h.dispatcher.start();
    const sent = async () => {
      let done = 0;
      for (const e of events)
        done += (await h!.history(e.eventId)).filter((a) => a.status === "SUCCEEDED").length;
      return done;
    };
    await waitFor(async () => (await sent()) === events.length, {
      timeoutMs: 20_000,
      message: "every attempt sent",
    });
    // One look per free slot would be about 120 / 4 = 30; the start's look and its surplus are two.
    expect(looks()).toBeLessThanOrEqual(4);
    for (const e of events) expect((await h.history(e.eventId)).map((a) => a.status)).toEqual(["SUCCEEDED"]);
    expect(h.receiver.requests.length).toBe(events.length);
  });
});
