import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import { fromConnectError, GatewayError } from "@gateway/platform";
import type { AccountsService } from "@gateway/proto";
import { AuthCache } from "./auth-cache.js";
import type { AuthenticatedCaller } from "./authenticated-caller.js";

const UNAUTHORIZED_DETAIL = "The API key is missing, malformed, expired or revoked.";

/** Resolves API keys to callers through the accounts service, with a short-lived cache. */
export class ApiKeyAuthenticator {
  constructor(
    private readonly accounts: Client<typeof AccountsService>,
    private readonly cache: AuthCache,
  ) {}

  /**
   * A missing or malformed key never reaches accounts. Accounts being unreachable is a 503
   * (SERVICE_UNAVAILABLE, retryable), never a 401: a valid key must not look revoked.
   */
  async authenticate(apiKey: string | undefined): Promise<AuthenticatedCaller> {
    if (apiKey === undefined) throw unauthorized();
    const fingerprint = AuthCache.fingerprint(apiKey);
    const cached = this.cache.get(fingerprint);
    if (cached) return cached;
    let caller: AuthenticatedCaller;
    let keyExpiresAt: Date | undefined;
    try {
      const response = await this.accounts.authenticate({ apiKey });
      if (!response.scope) throw new Error("accounts.Authenticate answered without a scope");
      caller = { scope: response.scope, keyId: response.keyId };
      keyExpiresAt = response.expiresAt ? timestampDate(response.expiresAt) : undefined;
    } catch (err) {
      const gatewayError = fromConnectError(err);
      // The same answer for every refused key: never reveal whether a key exists.
      if (gatewayError.reason === "UNAUTHORIZED") throw unauthorized();
      throw gatewayError;
    }
    this.cache.set(fingerprint, caller, keyExpiresAt);
    return caller;
  }

  forgetKey(keyId: string): void {
    this.cache.forgetKey(keyId);
  }
}

function unauthorized(): GatewayError {
  return new GatewayError("UNAUTHORIZED", UNAUTHORIZED_DETAIL);
}
