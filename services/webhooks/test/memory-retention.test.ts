import { newId } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { InMemoryDeliveryRepository } from "../src/adapters/memory/in-memory-delivery-repository.js";
import type { Delivery } from "../src/domain/delivery.js";
import { newScope } from "./support/fixtures.js";

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const at = (ms: number) => new Date(T0 + ms);

function attempt(o: Partial<Delivery>): Delivery {
  return {
    id: newId("whd"),
    scope: newScope(),
    sessionId: "ps_session_1",
    event: "session.succeeded",
    eventId: newId("evt"),
    url: "https://shop.example.tn/hooks",
    attemptNumber: 1,
    chainAttempt: 1,
    trigger: "initial",
    status: "PENDING",
    createdAt: at(0),
    dueAt: at(0),
    ...o,
  };
}

describe("in-memory deliveries under a retention window (embedded mode)", () => {
  it("when deliveries are older than the cutoff, then finished ones leave memory and pending ones stay", async () => {
    const repo = new InMemoryDeliveryRepository();
    const oldDone = attempt({ status: "SUCCEEDED", completedAt: at(1) });
    const oldFailed = attempt({ status: "FAILED", completedAt: at(1) });
    const oldPending = attempt({ status: "PENDING" });
    const recentDone = attempt({ status: "SUCCEEDED", createdAt: at(10_000), completedAt: at(10_001) });
    for (const d of [oldDone, oldFailed, oldPending, recentDone]) await repo.insert(d);

    expect(repo.forgetOlderThan(at(5_000))).toBe(2);

    expect(await repo.findById(oldDone.id)).toBeUndefined();
    expect(await repo.findById(oldFailed.id)).toBeUndefined();
    expect((await repo.findById(oldPending.id))?.status).toBe("PENDING");
    expect((await repo.findById(recentDone.id))?.status).toBe("SUCCEEDED");
  });
});
