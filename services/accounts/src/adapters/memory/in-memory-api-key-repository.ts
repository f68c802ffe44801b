import { type ApiKeyRepository, type InsertOutcome, MAX_LISTED_API_KEYS } from "../../app/ports.js";
import type { ApiKey } from "../../domain/api-key.js";

/** API keys in Maps, with the same uniqueness rules as the Mongo indexes (id, lookupId). */
export class InMemoryApiKeyRepository implements ApiKeyRepository {
  private readonly byId = new Map<string, ApiKey>();
  private readonly idByLookupId = new Map<string, string>();

  async insert(key: ApiKey): Promise<InsertOutcome> {
    if (this.byId.has(key.id) || this.idByLookupId.has(key.lookupId)) return "already_exists";
    this.byId.set(key.id, structuredClone(key));
    this.idByLookupId.set(key.lookupId, key.id);
    return "inserted";
  }

  async findById(id: string): Promise<ApiKey | undefined> {
    const key = this.byId.get(id);
    return key && structuredClone(key);
  }

  async findByLookupId(lookupId: string): Promise<ApiKey | undefined> {
    const id = this.idByLookupId.get(lookupId);
    return id === undefined ? undefined : this.findById(id);
  }

  async listByMerchant(merchantId: string): Promise<ApiKey[]> {
    return [...this.byId.values()]
      .filter((key) => key.merchantId === merchantId)
      .sort(
        (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
      )
      .slice(0, MAX_LISTED_API_KEYS)
      .map((key) => structuredClone(key));
  }

  async markRevoked(id: string, at: Date): Promise<ApiKey | undefined> {
    const key = this.byId.get(id);
    if (!key) return undefined;
    key.revokedAt ??= new Date(at.getTime());
    return structuredClone(key);
  }
}
