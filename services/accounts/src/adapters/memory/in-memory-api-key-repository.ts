import { copyRecord, type SealedSecret, type SecretBox } from "@gateway/platform";
import { type ApiKeyRepository, type InsertOutcome, MAX_LISTED_API_KEYS } from "../../app/ports.js";
import { type ApiKey, apiKeySecretContext } from "../../domain/api-key.js";

/**
 * API keys in Maps, with the same uniqueness rules as the Mongo indexes (id, lookupId). Kept test
 * keys are sealed here too, as in the Mongo store, so no plain key sits in memory.
 */
export class InMemoryApiKeyRepository implements ApiKeyRepository {
  private readonly byId = new Map<string, ApiKey>();
  private readonly idByLookupId = new Map<string, string>();
  private readonly sealed = new Map<string, SealedSecret>();

  constructor(private readonly secrets: SecretBox) {}

  async insert(key: ApiKey, secret?: string): Promise<InsertOutcome> {
    if (this.byId.has(key.id) || this.idByLookupId.has(key.lookupId)) return "already_exists";
    this.byId.set(key.id, { ...copyRecord(key), retrievable: secret !== undefined });
    this.idByLookupId.set(key.lookupId, key.id);
    if (secret !== undefined) this.sealed.set(key.id, this.secrets.seal(secret, apiKeySecretContext(key.id)));
    return "inserted";
  }

  async openSecret(id: string): Promise<string | undefined> {
    const sealed = this.sealed.get(id);
    return sealed && this.secrets.open(sealed, apiKeySecretContext(id));
  }

  async expireBy(id: string, at: Date): Promise<ApiKey | undefined> {
    const key = this.byId.get(id);
    if (!key) return undefined;
    if (!key.revokedAt && (!key.expiresAt || key.expiresAt.getTime() > at.getTime()))
      key.expiresAt = new Date(at.getTime());
    return copyRecord(key);
  }

  async recordUse(id: string, at: Date): Promise<void> {
    const key = this.byId.get(id);
    if (key) key.lastUsedAt = new Date(at.getTime());
  }

  async findById(id: string): Promise<ApiKey | undefined> {
    const key = this.byId.get(id);
    return key && copyRecord(key);
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
      .map((key) => copyRecord(key));
  }

  async markRevoked(id: string, at: Date): Promise<ApiKey | undefined> {
    const key = this.byId.get(id);
    if (!key) return undefined;
    key.revokedAt ??= new Date(at.getTime());
    return copyRecord(key);
  }
}
