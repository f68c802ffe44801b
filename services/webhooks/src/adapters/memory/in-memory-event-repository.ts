import { copyRecord } from "@gateway/platform";
import type { InsertOutcome, WebhookEventRepository } from "../../app/ports.js";
import type { WebhookEvent } from "../../domain/webhook-event.js";

/** Received events in this process (embedded mode, unit tests). */
export class InMemoryWebhookEventRepository implements WebhookEventRepository {
  private readonly byId = new Map<string, WebhookEvent>();

  async insert(event: WebhookEvent): Promise<InsertOutcome> {
    if (this.byId.has(event.id)) return "already_exists";
    this.byId.set(event.id, copyRecord(event));
    return "inserted";
  }

  /**
   * Bounded memory (embedded mode): drops events received before `cutoff`; returns how many.
   * The retention covers the retry schedule, so no delivery of theirs is still pending.
   */
  forgetOlderThan(cutoff: Date): number {
    let dropped = 0;
    for (const [id, event] of this.byId) {
      if (event.receivedAt.getTime() >= cutoff.getTime()) continue;
      this.byId.delete(id);
      dropped++;
    }
    return dropped;
  }

  async findById(id: string): Promise<WebhookEvent | undefined> {
    const event = this.byId.get(id);
    return event ? copyRecord(event) : undefined;
  }
}
