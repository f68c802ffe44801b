import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { GatewayError, newId, randomBase62, type Clock } from "@gateway/platform";
import { AccountScopeSchema, ApiKeySchema, MerchantSchema, type AccountsService, type ApiKey, type Merchant } from "@gateway/proto";

/**
 * In-memory test double of gateway.accounts.v1.AccountsService. It keeps the contract the edge
 * relies on (reasons, 403 for live keys of unverified merchants, revocation, expiry) so the
 * edge's tests exercise real answers, not canned ones.
 */
export class FakeAccountsService implements ServiceImpl<typeof AccountsService> {
  readonly merchants = new Map<string, Merchant>();
  private readonly keys = new Map<string, { key: ApiKey; secret: string }>();
  private readonly rates = new Map<string, string>();
  /** Every api_key Authenticate was asked about, to prove caching and short-circuits. */
  readonly authenticateCalls: string[] = [];

  constructor(private readonly clock: Clock) {}

  authenticate = async (req: { apiKey: string }) => {
    this.authenticateCalls.push(req.apiKey);
    const found = [...this.keys.values()].find((k) => k.secret === req.apiKey);
    const now = this.clock.now().getTime();
    if (!found || found.key.revokedAt || (found.key.expiresAt && timestampDate(found.key.expiresAt).getTime() <= now)) {
      throw new GatewayError("UNAUTHORIZED", "Invalid API key.");
    }
    return { scope: create(AccountScopeSchema, { merchantId: found.key.merchantId, livemode: found.key.livemode }), keyId: found.key.id };
  };

  createMerchant = async (req: { name: string }) => {
    const name = req.name.trim();
    if (name === "" || name.length > 200) {
      throw GatewayError.validation([{ field: "name", code: name === "" ? "required" : "invalid", message: "Give a name of 1 to 200 characters." }]);
    }
    const merchant = create(MerchantSchema, { id: newId("mer"), name, verified: false, createdAt: this.now() });
    this.merchants.set(merchant.id, merchant);
    return { merchant };
  };

  getMerchant = async (req: { merchantId: string }) => {
    return { merchant: this.requireMerchant(req.merchantId) };
  };

  verifyMerchant = async (req: { merchantId: string }) => {
    const merchant = this.requireMerchant(req.merchantId);
    merchant.verified = true;
    return { merchant };
  };

  createApiKey = async (req: { merchantId: string; livemode: boolean; expiresAt?: Timestamp }) => {
    const merchant = this.requireMerchant(req.merchantId);
    if (req.livemode && !merchant.verified) throw new GatewayError("FORBIDDEN", "Live keys need a verified merchant.");
    if (req.expiresAt && timestampDate(req.expiresAt).getTime() <= this.clock.now().getTime()) {
      throw GatewayError.validation([{ field: "expires_at", code: "invalid", message: "Must be in the future." }]);
    }
    const prefix = `sk_${req.livemode ? "live" : "test"}_`;
    const secret = `${prefix}${randomBase62(32)}`;
    const key = create(ApiKeySchema, {
      id: newId("key"),
      merchantId: merchant.id,
      livemode: req.livemode,
      prefix: secret.slice(0, prefix.length + 8),
      createdAt: this.now(),
      expiresAt: req.expiresAt,
    });
    this.keys.set(key.id, { key, secret });
    return { apiKey: key, secret };
  };

  revokeApiKey = async (req: { keyId: string }) => {
    const found = this.keys.get(req.keyId);
    if (!found) throw GatewayError.notFound("API key", req.keyId);
    found.key.revokedAt ??= this.now();
    return { apiKey: found.key };
  };

  setExchangeRate = async (req: { merchantId: string; currency: string; rate: string }) => {
    this.requireMerchant(req.merchantId);
    const violations = [];
    if (!/^[A-Z]{3}$/.test(req.currency) || req.currency === "TND") {
      violations.push({ field: "currency", code: "invalid", message: "Must be an ISO 4217 code other than TND." });
    }
    const m = /^(0|[1-9]\d*)(?:\.(\d{1,6}))?$/.exec(req.rate);
    if (!m || /^0(\.0*)?$/.test(req.rate)) violations.push({ field: "rate", code: "invalid", message: "Must be a positive decimal with at most 6 places." });
    if (violations.length > 0) throw GatewayError.validation(violations);
    const rate = `${m![1]}.${(m![2] ?? "").padEnd(6, "0")}`;
    this.rates.set(`${req.merchantId}:${req.currency}`, rate);
    return { currency: req.currency, rate };
  };

  getExchangeRate = async (req: { merchantId: string; currency: string }) => {
    const rate = this.rates.get(`${req.merchantId}:${req.currency}`);
    if (!rate) throw new GatewayError("NOT_FOUND", `No exchange rate is configured for ${req.currency}.`, { metadata: { currency: req.currency } });
    return { currency: req.currency, rate };
  };

  /** Test setup: a merchant (verified when live) with one key; returns the secret and ids. */
  async issueKey(options: { livemode?: boolean } = {}): Promise<{ secret: string; keyId: string; merchantId: string }> {
    const { merchant } = await this.createMerchant({ name: "Test Shop" });
    if (options.livemode) await this.verifyMerchant({ merchantId: merchant.id });
    const { apiKey, secret } = await this.createApiKey({ merchantId: merchant.id, livemode: options.livemode ?? false });
    return { secret, keyId: apiKey.id, merchantId: merchant.id };
  }

  private requireMerchant(id: string): Merchant {
    const merchant = this.merchants.get(id);
    if (!merchant) throw GatewayError.notFound("merchant", id);
    return merchant;
  }

  private now(): Timestamp {
    return timestampFromDate(this.clock.now());
  }
}
