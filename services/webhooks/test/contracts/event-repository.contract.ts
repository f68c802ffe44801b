import { newId } from "@gateway/platform";
import { beforeAll, describe, expect, it } from "vitest";
import type { WebhookEventRepository } from "../../src/app/ports.js";
import type { WebhookEvent } from "../../src/domain/webhook-event.js";
import { newScope } from "../support/fixtures.js";

function event(o: Partial<WebhookEvent> = {}): WebhookEvent {
  return {
    id: newId("evt"),
    scope: newScope(),
    sessionId: newId("ps"),
    type: "session.succeeded",
    sequence: 3,
    occurredAt: new Date(Date.UTC(2026, 0, 1)),
    sessionWebhookUrl: "https://shop.example.tn/per-session",
    body: '{"id":"evt_x","data":{"metadata":{"a.b":{"$c":[[1]]},"n":1.50}}}',
    traceContext: {
      traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      tracestate: "vendor=a",
    },
    receivedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 1)),
    ...o,
  };
}

/** The contract of WebhookEventRepository, for the in-memory and the Mongo adapter. */
export function eventRepositoryContract(adapter: string, open: () => Promise<WebhookEventRepository>): void {
  describe(`WebhookEventRepository contract: ${adapter}`, () => {
    let repo: WebhookEventRepository;
    beforeAll(async () => {
      repo = await open();
    });

    it("when an event is stored, then it reads back exactly, body bytes included", async () => {
      const e = event();
      expect(await repo.insert(e)).toBe("inserted");
      expect(await repo.findById(e.id)).toEqual(e);
      const { sessionWebhookUrl: _none, traceContext: _untraced, ...withoutUrl } = event();
      await repo.insert(withoutUrl);
      expect(await repo.findById(withoutUrl.id)).toEqual(withoutUrl);
    });

    it("when a refund event (which has no sequence) is stored, then it reads back exactly, without a sequence", async () => {
      const { sequence: _none, ...refundEvent } = event({ type: "refund.succeeded" });
      expect(await repo.insert(refundEvent)).toBe("inserted");
      expect(await repo.findById(refundEvent.id)).toEqual(refundEvent);
    });

    it("when the same event id arrives again, then the first one and its body are kept", async () => {
      const e = event();
      await repo.insert(e);
      expect(await repo.insert({ ...e, body: "{}" })).toBe("already_exists");
      expect((await repo.findById(e.id))?.body).toBe(e.body);
    });

    it("when the event is unknown, then it is not found", async () => {
      expect(await repo.findById("evt_unknown")).toBeUndefined();
    });
  });
}
