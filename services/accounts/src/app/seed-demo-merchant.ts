import { type Clock, GatewayError, newId, SecretUnreadableError } from "@gateway/platform";
import {
  apiKeyHashesMatch,
  hashApiKey,
  inactiveReason,
  newApiKeyRecord,
  parseApiKey,
} from "../domain/api-key.js";
import type { Merchant } from "../domain/merchant.js";
import { parseTerminalInput, type TerminalCredentials, type TerminalInput } from "../domain/terminal.js";
import { createApiKey } from "./api-keys.js";
import type { AccountsRepositories } from "./ports.js";

export const DEMO_MERCHANT_ID = "mer_demo";
export const DEMO_MERCHANT_NAME = "Demo Shop";

export interface SeededDemoMerchant {
  merchantId: string;
  /** A test key that authenticates as the demo merchant. */
  testKey: string;
  /** True when this call created the merchant. */
  created: boolean;
  /** Present when a test terminal was asked for: what this call had to do to it. */
  testTerminal?: "created" | "updated" | "unchanged";
}

export interface SeedDemoMerchantOptions {
  testKey?: string;
  /** The demo merchant's TEST terminal (in practice the EPG simulator); active. */
  testTerminal?: TerminalCredentials;
}

/**
 * Makes sure the verified demo merchant exists and returns a working test key for it.
 * Idempotent and safe to run on every start (and from several replicas at once):
 * - `testKey` given: it is imported (stored hashed) unless already there;
 * - no `testKey`: a fresh random test key is created each time, so the key printed at start
 *   always works (earlier ones stay valid);
 * - `testTerminal` given: the test terminal is set to it (active) unless it already is, so a
 *   restart with other settings (or another secrets key) brings it in line.
 * Errors never quote the key or the terminal password.
 */
export async function seedDemoMerchant(
  repos: AccountsRepositories,
  clock: Clock,
  options: SeedDemoMerchantOptions = {},
): Promise<SeededDemoMerchant> {
  const imported = options.testKey === undefined ? undefined : parseDemoTestKey(options.testKey);
  const terminal = options.testTerminal === undefined ? undefined : parseDemoTerminal(options.testTerminal);
  const created = await ensureDemoMerchant(repos, clock);
  const testTerminal = terminal && (await ensureDemoTestTerminal(repos, clock, terminal));
  let testKey: string;
  if (imported) {
    await importDemoTestKey(repos, clock, imported);
    testKey = imported.text;
  } else {
    testKey = (await createApiKey({ repos, clock }, { merchantId: DEMO_MERCHANT_ID, livemode: false }))
      .secret;
  }
  return { merchantId: DEMO_MERCHANT_ID, testKey, created, ...(testTerminal ? { testTerminal } : {}) };
}

function parseDemoTerminal(credentials: TerminalCredentials): TerminalInput {
  try {
    return parseTerminalInput({ ...credentials, active: true }, false);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    // Violation messages name the field and the rule, never the value.
    const why = err.violations.map((v) => v.message).join(" ");
    throw new Error(
      `The demo test terminal (GATEWAY_DEMO_TERMINAL_URL and the simulator credentials) is invalid: ${why}`,
    );
  }
}

async function ensureDemoTestTerminal(
  repos: AccountsRepositories,
  clock: Clock,
  wanted: TerminalInput,
): Promise<"created" | "updated" | "unchanged"> {
  const stored = await repos.terminals.findWithPassword(DEMO_MERCHANT_ID, false);
  if (
    stored &&
    stored.terminal.baseUrl === wanted.baseUrl &&
    stored.terminal.username === wanted.username &&
    stored.terminal.active
  ) {
    if (storedPasswordIs(() => stored.openPassword(), wanted.password)) return "unchanged";
  }
  await repos.terminals.upsert(
    {
      merchantId: DEMO_MERCHANT_ID,
      livemode: false,
      baseUrl: wanted.baseUrl,
      username: wanted.username,
      active: true,
      updatedAt: clock.now(),
    },
    wanted.password,
  );
  return stored ? "updated" : "created";
}

function storedPasswordIs(openPassword: () => string, password: string): boolean {
  try {
    return openPassword() === password;
  } catch (err) {
    // Sealed with a key this process no longer has (a demo run without GATEWAY_SECRETS_KEY
    // restarted): the password is simply set again.
    if (err instanceof SecretUnreadableError) return false;
    throw err;
  }
}

function parseDemoTestKey(text: string) {
  const key = parseApiKey(text);
  if (!key || key.livemode) {
    throw new Error(
      "The demo test key (GATEWAY_DEMO_TEST_KEY) must be a test key: sk_test_ followed by 44 letters and digits (A-Z, a-z, 0-9).",
    );
  }
  return key;
}

async function ensureDemoMerchant(repos: AccountsRepositories, clock: Clock): Promise<boolean> {
  const demo: Merchant = {
    id: DEMO_MERCHANT_ID,
    name: DEMO_MERCHANT_NAME,
    verified: true,
    createdAt: clock.now(),
  };
  const outcome = await repos.merchants.insert(demo);
  if (outcome === "inserted") return true;
  // Exists already (an earlier start, or another replica just now): only verification matters.
  const existing = await repos.merchants.findById(DEMO_MERCHANT_ID);
  if (existing && !existing.verified) await repos.merchants.markVerified(DEMO_MERCHANT_ID);
  return false;
}

async function importDemoTestKey(
  repos: AccountsRepositories,
  clock: Clock,
  key: NonNullable<ReturnType<typeof parseApiKey>>,
): Promise<void> {
  const record = newApiKeyRecord({
    id: newId("key"),
    merchantId: DEMO_MERCHANT_ID,
    key,
    createdAt: clock.now(),
  });
  // A test key: kept sealed, so the demo merchant's dashboard can show it.
  if ((await repos.apiKeys.insert(record, key.text)) === "inserted") return;
  // Its lookup id is taken: fine if it is this very key on the demo merchant and still usable.
  const stored = await repos.apiKeys.findByLookupId(key.lookupId);
  if (
    !stored ||
    stored.merchantId !== DEMO_MERCHANT_ID ||
    !apiKeyHashesMatch(stored.hash, hashApiKey(key.text))
  ) {
    throw new Error(
      "The demo test key (GATEWAY_DEMO_TEST_KEY) shares its lookup id with another API key; choose a different key.",
    );
  }
  const inactive = inactiveReason(stored, clock.now());
  if (inactive) {
    throw new Error(
      `The demo test key (GATEWAY_DEMO_TEST_KEY) was ${inactive} (key ${stored.id}); choose a different key.`,
    );
  }
}
