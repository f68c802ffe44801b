import type { InsertOutcome, WebhookEventRepository } from "../../app/ports.js";
import type { WebhookEvent } from "../../domain/webhook-event.js";

/** Received events in this process (embedded mode, unit tests). */
export class InMemoryWebhookEventRepository implements WebhookEventRepository {
  private readonly byId = new Map<string, WebhookEvent>();

  async insert(event: WebhookEvent): Promise<InsertOutcome> {
    if (this.byId.has(event.id)) return "already_exists";
    this.byId.set(event.id, structuredClone(event));
    return "inserted";
  }

  async findById(id: string): Promise<WebhookEvent | undefined> {
    const event = this.byId.get(id);
    return event ? structuredClone(event) : undefined;
  }
}
