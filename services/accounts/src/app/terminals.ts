import { GatewayError } from "@gateway/platform";
import type { AccountScope } from "../domain/account-scope.js";
import {
  modeName,
  parseTerminalInput,
  type Terminal,
  type TerminalCredentials,
  type TerminalInput,
} from "../domain/terminal.js";
import type { AccountsDeps } from "./accounts-deps.js";
import { getMerchant, requireId } from "./merchants.js";

/**
 * Configures (or replaces) the merchant's terminal for one mode. A live terminal needs a
 * verified merchant, as live keys do: until then nothing can charge real cards.
 */
export async function setTerminal(
  deps: AccountsDeps,
  input: TerminalInput & { merchantId: string; livemode: boolean },
): Promise<Terminal> {
  const parsed = parseTerminalInput(input, input.livemode);
  const merchant = await getMerchant(deps, input.merchantId);
  if (input.livemode && !merchant.verified) {
    throw new GatewayError("FORBIDDEN", "Live terminals require a verified merchant.", {
      metadata: { merchant_id: merchant.id },
    });
  }
  const terminal: Terminal = {
    merchantId: merchant.id,
    livemode: input.livemode,
    baseUrl: parsed.baseUrl,
    username: parsed.username,
    active: parsed.active,
    updatedAt: deps.clock.now(),
  };
  await deps.repos.terminals.upsert(terminal, parsed.password);
  return terminal;
}

function noTerminal(livemode: boolean): GatewayError {
  const mode = modeName(livemode);
  return new GatewayError("NO_TERMINAL_CONFIGURED", `No ${mode} terminal is configured for this account.`, {
    metadata: { mode },
  });
}

/** The terminal's settings (never its password); NOT_FOUND (metadata `mode`) when there is none. */
export async function getTerminal(
  deps: AccountsDeps,
  input: { merchantId: string; livemode: boolean },
): Promise<Terminal> {
  const merchant = await getMerchant(deps, input.merchantId);
  const terminal = await deps.repos.terminals.find(merchant.id, input.livemode);
  if (!terminal) {
    const mode = modeName(input.livemode);
    throw new GatewayError("NOT_FOUND", `No ${mode} terminal is configured for this merchant.`, {
      metadata: { mode },
    });
  }
  return terminal;
}

/**
 * The credentials to talk to the acquirer for an account scope (internal callers only).
 * The password is decrypted only for an active terminal; an unreadable one fails as an
 * internal error whose log names the key id, never any part of the password.
 */
export async function resolveTerminalCredentials(
  deps: AccountsDeps,
  scope: AccountScope | undefined,
): Promise<TerminalCredentials> {
  if (!scope)
    throw GatewayError.validation([{ field: "scope", code: "required", message: "scope is required." }]);
  const merchantId = requireId("scope.merchant_id", scope.merchantId);
  const stored = await deps.repos.terminals.findWithPassword(merchantId, scope.livemode);
  if (!stored) throw noTerminal(scope.livemode);
  const { terminal } = stored;
  if (!terminal.active) {
    const mode = modeName(scope.livemode);
    throw new GatewayError("TERMINAL_INACTIVE", `The ${mode} terminal of this account is inactive.`, {
      metadata: { mode },
    });
  }
  return { baseUrl: terminal.baseUrl, username: terminal.username, password: stored.openPassword() };
}
