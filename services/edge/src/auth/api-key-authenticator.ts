import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import { AnswerMemory, type Clock, fromConnectError, GatewayError, sha256Hex } from "@gateway/platform";
import type { AccountsService } from "@gateway/proto";
import type { AuthenticatedCaller } from "./authenticated-caller.js";

const UNAUTHORIZED_DETAIL = "The API key is missing, malformed, expired or revoked.";

/** What accounts said of a key: who it authenticates, and when it stops working (if ever). */
interface KeyAnswer {
  caller: AuthenticatedCaller;
  keyExpiresAt: number | undefined;
}

/**
 * The SHA-256 of an API key: what remembered answers are keyed by, so the raw key is never held
 * longer than the request that carried it.
 */
export function apiKeyFingerprint(apiKey: string): string {
  return sha256Hex(apiKey);
}

/**
 * Resolves API keys to callers through the accounts service. A key's answer is remembered for
 * `ttlMs` (GATEWAY_AUTH_CACHE_TTL, docs/decisions.md#accounts-and-api-keys), never past the key's
 * own expiry, and forgotten at once when any edge replica announces its revocation (forgetKey).
 * Refusals are never remembered: a key created a second ago must work at once. Requests that
 * arrive while a key is being asked about share the question, and a key in steady use is asked
 * about again in the background before its answer runs out
 * (docs/decisions.md#remembered-answers-are-renewed-before-they-run-out).
 */
export class ApiKeyAuthenticator {
  private readonly memory: AnswerMemory<KeyAnswer>;

  constructor(
    private readonly accounts: Client<typeof AccountsService>,
    private readonly clock: Clock,
    ttlMs: number,
  ) {
    this.memory = new AnswerMemory<KeyAnswer>(clock, ttlMs);
  }

  /**
   * A missing or malformed key never reaches accounts. Accounts being unreachable is a 503
   * (SERVICE_UNAVAILABLE, retryable), never a 401: a valid key must not look revoked.
   */
  async authenticate(apiKey: string | undefined): Promise<AuthenticatedCaller> {
    if (apiKey === undefined) throw unauthorized();
    const answer = await this.memory.answer(apiKeyFingerprint(apiKey), () => this.ask(apiKey));
    // A remembered answer is never trusted past the key's own expiry, nor one that arrived after it.
    if (answer.keyExpiresAt !== undefined && answer.keyExpiresAt <= this.clock.now().getTime())
      throw unauthorized();
    return answer.caller;
  }

  /** Drops a revoked key at once (told by the revoking edge, through KeyRevocations). */
  forgetKey(keyId: string): void {
    this.memory.forgetWhere((answer) => answer.caller.keyId === keyId);
  }

  private async ask(apiKey: string): Promise<KeyAnswer> {
    try {
      const response = await this.accounts.authenticate({ apiKey });
      if (!response.scope) throw new Error("accounts.Authenticate answered without a scope");
      return {
        caller: { scope: response.scope, keyId: response.keyId },
        keyExpiresAt: response.expiresAt ? timestampDate(response.expiresAt).getTime() : undefined,
      };
    } catch (err) {
      const gatewayError = fromConnectError(err);
      // The same answer for every refused key: never reveal whether a key exists.
      if (gatewayError.reason === "UNAUTHORIZED") throw unauthorized();
      throw gatewayError;
    }
  }
}

function unauthorized(): GatewayError {
  return new GatewayError("UNAUTHORIZED", UNAUTHORIZED_DETAIL);
}
