import { GatewayError, ManualClock } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { createMemorySessionRepository } from "../../src/adapters/memory/in-memory-session-repository.js";
import { cancelSession } from "../../src/app/cancel-session.js";
import type { SessionRepository } from "../../src/app/ports.js";
import { newScope, sessionFixture } from "../support/fixtures.js";
import { offlinePaymentDeps } from "../support/payment-fakes.js";

describe("cancelSession", () => {
  it("when the session does not exist, then it is NOT_FOUND", async () => {
    const err = await cancelSession(
      offlinePaymentDeps(createMemorySessionRepository(), new ManualClock()),
      newScope(),
      "ps_missing",
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).reason).toBe("NOT_FOUND");
  });

  it("when a payment settles between the read and the write, then the cancel decides again on the new state", async () => {
    const inner = createMemorySessionRepository();
    const scope = newScope();
    const session = sessionFixture(scope);
    await inner.insert(session);
    let raced = false;
    // Another writer marks the session SUCCEEDED right after the cancel has read it.
    const racing: SessionRepository = {
      insert: (s) => inner.insert(s),
      findByReference: (sc, r) => inner.findByReference(sc, r),
      list: (sc, f, p) => inner.list(sc, f, p),
      updateIf: (s, c, e) => inner.updateIf(s, c, e),
      findByCheckoutToken: (t) => inner.findByCheckoutToken(t),
      findByAcquirerOrderId: (o) => inner.findByAcquirerOrderId(o),
      findPendingOutbox: (l) => inner.findPendingOutbox(l),
      findDue: (n, l) => inner.findDue(n, l),
      markOutboxPublished: (s, e, at) => inner.markOutboxPublished(s, e, at),
      findById: async (sc, id) => {
        const read = await inner.findById(sc, id);
        if (!raced) {
          raced = true;
          await inner.updateIf(read!, { status: "SUCCEEDED" });
        }
        return read;
      },
    };
    const err = await cancelSession(offlinePaymentDeps(racing, new ManualClock()), scope, session.id).catch(
      (e: unknown) => e,
    );
    expect((err as GatewayError).reason).toBe("SESSION_TERMINAL");
    expect((await inner.findById(scope, session.id))?.status).toBe("SUCCEEDED");
  });
});
