import { create } from "@bufbuild/protobuf";
import { type Timestamp, timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { type Clock, GatewayError, newId, randomBase62 } from "@gateway/platform";
import {
  type AccountScope,
  AccountScopeSchema,
  type AccountsService,
  type ApiKey,
  ApiKeySchema,
  type FeePlan,
  FeePlanSchema,
  type Merchant,
  MerchantSchema,
  type Terminal,
  TerminalSchema,
} from "@gateway/proto";

/**
 * In-memory test double of gateway.accounts.v1.AccountsService. It keeps the contract the edge
 * relies on (reasons, 403 for live keys and live terminals of unverified merchants, revocation,
 * expiry, write-only terminal passwords, the zero default fee plan) so the edge's tests
 * exercise real answers, not canned ones.
 */
export class FakeAccountsService implements ServiceImpl<typeof AccountsService> {
  readonly merchants = new Map<string, Merchant>();
  private readonly keys = new Map<string, { key: ApiKey; secret: string }>();
  private readonly rates = new Map<string, string>();
  /** Terminals by `${merchantId}:${mode}`, with the password the edge passed on (tests check it). */
  readonly terminals = new Map<string, { terminal: Terminal; password: string }>();
  private readonly feePlans = new Map<string, FeePlan>();
  /** Every api_key Authenticate was asked about, to prove caching and short-circuits. */
  readonly authenticateCalls: string[] = [];

  constructor(private readonly clock: Clock) {}

  authenticate = async (req: { apiKey: string }) => {
    this.authenticateCalls.push(req.apiKey);
    const found = [...this.keys.values()].find((k) => k.secret === req.apiKey);
    const now = this.clock.now().getTime();
    if (
      !found ||
      found.key.revokedAt ||
      (found.key.expiresAt && timestampDate(found.key.expiresAt).getTime() <= now)
    ) {
      throw new GatewayError("UNAUTHORIZED", "Invalid API key.");
    }
    return {
      scope: create(AccountScopeSchema, { merchantId: found.key.merchantId, livemode: found.key.livemode }),
      keyId: found.key.id,
    };
  };

  createMerchant = async (req: { name: string }) => {
    const name = req.name.trim();
    if (name === "" || name.length > 200) {
      throw GatewayError.validation([
        {
          field: "name",
          code: name === "" ? "required" : "invalid",
          message: "Give a name of 1 to 200 characters.",
        },
      ]);
    }
    const merchant = create(MerchantSchema, {
      id: newId("mer"),
      name,
      verified: false,
      createdAt: this.now(),
    });
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
    if (req.livemode && !merchant.verified)
      throw new GatewayError("FORBIDDEN", "Live keys need a verified merchant.");
    if (req.expiresAt && timestampDate(req.expiresAt).getTime() <= this.clock.now().getTime()) {
      throw GatewayError.validation([
        { field: "expires_at", code: "invalid", message: "Must be in the future." },
      ]);
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
      violations.push({
        field: "currency",
        code: "invalid",
        message: "Must be an ISO 4217 code other than TND.",
      });
    }
    const m = /^(0|[1-9]\d*)(?:\.(\d{1,6}))?$/.exec(req.rate);
    if (!m || /^0(\.0*)?$/.test(req.rate))
      violations.push({
        field: "rate",
        code: "invalid",
        message: "Must be a positive decimal with at most 6 places.",
      });
    if (violations.length > 0) throw GatewayError.validation(violations);
    const rate = `${m![1]}.${(m![2] ?? "").padEnd(6, "0")}`;
    this.rates.set(`${req.merchantId}:${req.currency}`, rate);
    return { currency: req.currency, rate };
  };

  getExchangeRate = async (req: { merchantId: string; currency: string }) => {
    const rate = this.rates.get(`${req.merchantId}:${req.currency}`);
    if (!rate)
      throw new GatewayError("NOT_FOUND", `No exchange rate is configured for ${req.currency}.`, {
        metadata: { currency: req.currency },
      });
    return { currency: req.currency, rate };
  };

  setTerminal = async (req: {
    merchantId: string;
    livemode: boolean;
    baseUrl: string;
    username: string;
    password: string;
    active: boolean;
  }) => {
    const merchant = this.requireMerchant(req.merchantId);
    const violations = [];
    let url: URL | undefined;
    try {
      url = new URL(req.baseUrl);
    } catch {
      url = undefined;
    }
    if (req.baseUrl === "")
      violations.push({ field: "base_url", code: "required", message: "base_url is required." });
    else if (
      !url ||
      !["http:", "https:"].includes(url.protocol) ||
      (req.livemode && url.protocol !== "https:")
    ) {
      violations.push({
        field: "base_url",
        code: "invalid",
        message: "Must be an absolute http(s) URL; https for live terminals.",
      });
    }
    if (req.username.trim() === "")
      violations.push({ field: "username", code: "required", message: "username is required." });
    else if ([...req.username].length > 100)
      violations.push({ field: "username", code: "invalid", message: "At most 100 characters." });
    if (req.password === "")
      violations.push({ field: "password", code: "required", message: "password is required." });
    else if ([...req.password].length > 200)
      violations.push({ field: "password", code: "invalid", message: "At most 200 characters." });
    if (violations.length > 0) throw GatewayError.validation(violations);
    if (req.livemode && !merchant.verified)
      throw new GatewayError("FORBIDDEN", "Live terminals require a verified merchant.");
    const terminal = create(TerminalSchema, {
      merchantId: merchant.id,
      livemode: req.livemode,
      baseUrl: url!.href.replace(/\/+$/, ""),
      username: req.username.trim(),
      active: req.active,
      updatedAt: this.now(),
    });
    this.terminals.set(terminalKey(merchant.id, req.livemode), { terminal, password: req.password });
    return { terminal };
  };

  getTerminal = async (req: { merchantId: string; livemode: boolean }) => {
    this.requireMerchant(req.merchantId);
    const stored = this.terminals.get(terminalKey(req.merchantId, req.livemode));
    const mode = req.livemode ? "live" : "test";
    if (!stored)
      throw new GatewayError("NOT_FOUND", `No ${mode} terminal is configured for this merchant.`, {
        metadata: { mode },
      });
    return { terminal: stored.terminal };
  };

  resolveTerminalCredentials = async (req: { scope?: AccountScope }) => {
    if (!req.scope)
      throw GatewayError.validation([{ field: "scope", code: "required", message: "scope is required." }]);
    const stored = this.terminals.get(terminalKey(req.scope.merchantId, req.scope.livemode));
    const mode = req.scope.livemode ? "live" : "test";
    if (!stored)
      throw new GatewayError(
        "NO_TERMINAL_CONFIGURED",
        `No ${mode} terminal is configured for this account.`,
        { metadata: { mode } },
      );
    if (!stored.terminal.active)
      throw new GatewayError("TERMINAL_INACTIVE", `The ${mode} terminal of this account is inactive.`, {
        metadata: { mode },
      });
    return {
      baseUrl: stored.terminal.baseUrl,
      username: stored.terminal.username,
      password: stored.password,
    };
  };

  setFeePlan = async (req: { merchantId: string; percent: string; fixed: string }) => {
    this.requireMerchant(req.merchantId);
    const violations = [];
    const percent = /^(0|[1-9]\d*)(?:\.\d{1,4})?$/.test(req.percent) ? req.percent : undefined;
    if (req.percent === "")
      violations.push({ field: "percent", code: "required", message: "percent is required." });
    else if (!percent || Number(percent.split(".")[0]) >= 100) {
      violations.push({
        field: "percent",
        code: "invalid",
        message: "Must be a decimal string, 0 <= percent < 100, at most 4 decimals.",
      });
    }
    if (req.fixed === "")
      violations.push({ field: "fixed", code: "required", message: "fixed is required." });
    else if (!/^(0|[1-9]\d{0,5})\.\d{3}$/.test(req.fixed)) {
      violations.push({
        field: "fixed",
        code: "invalid",
        message: "Must be a decimal string in TND with exactly 3 decimals.",
      });
    }
    if (violations.length > 0) throw GatewayError.validation(violations);
    // The shortest form, as accounts answers: "2.50" -> "2.5", "0.0000" -> "0".
    const normalised = percent!.includes(".") ? percent!.replace(/0+$/, "").replace(/\.$/, "") : percent!;
    const feePlan = create(FeePlanSchema, {
      merchantId: req.merchantId,
      percent: normalised,
      fixed: req.fixed,
      updatedAt: this.now(),
    });
    this.feePlans.set(req.merchantId, feePlan);
    return { feePlan };
  };

  getFeePlan = async (req: { merchantId: string }) => {
    this.requireMerchant(req.merchantId);
    return {
      feePlan:
        this.feePlans.get(req.merchantId) ??
        create(FeePlanSchema, { merchantId: req.merchantId, percent: "0", fixed: "0.000" }),
    };
  };

  /** Test setup: a merchant (verified when live) with one key; returns the secret and ids. */
  async issueKey(
    options: { livemode?: boolean } = {},
  ): Promise<{ secret: string; keyId: string; merchantId: string }> {
    const { merchant } = await this.createMerchant({ name: "Test Shop" });
    if (options.livemode) await this.verifyMerchant({ merchantId: merchant.id });
    const { apiKey, secret } = await this.createApiKey({
      merchantId: merchant.id,
      livemode: options.livemode ?? false,
    });
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

function terminalKey(merchantId: string, livemode: boolean): string {
  return `${merchantId}:${livemode ? "live" : "test"}`;
}
