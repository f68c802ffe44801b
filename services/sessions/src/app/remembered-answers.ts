import type { Clock } from "@gateway/platform";
import type { MerchantDirectory, TerminalProvider } from "./ports.js";

/** How long an answer from accounts is trusted where a few seconds' staleness is harmless. */
export const REMEMBER_ANSWERS_MS = 5_000;

/** Keys remembered at once; past this the oldest is forgotten first. */
const MAX_REMEMBERED = 10_000;

interface Remembered<V> {
  answer: Promise<V>;
  until: number;
}

/**
 * `ask`, with each key's answer remembered for `ttlMs`
 * (docs/decisions.md#sessions-remember-a-few-answers-from-accounts-for-five-seconds). Only answers are
 * remembered: a refusal or a failure is forgotten at once, so the next call asks again. Calls
 * that ask while an answer is on its way share it.
 */
function rememberAnswers<K, V>(
  ask: (key: K) => Promise<V>,
  keyOf: (key: K) => string,
  clock: Clock,
  ttlMs: number,
): (key: K) => Promise<V> {
  const remembered = new Map<string, Remembered<V>>();
  return (key) => {
    const name = keyOf(key);
    const now = clock.now().getTime();
    const known = remembered.get(name);
    if (known && known.until > now) return known.answer;
    remembered.delete(name);
    if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
    const entry: Remembered<V> = { answer: ask(key), until: now + ttlMs };
    remembered.set(name, entry);
    entry.answer.catch(() => {
      if (remembered.get(name) === entry) remembered.delete(name);
    });
    return entry.answer;
  };
}

/**
 * The terminal check a create makes, remembered per merchant and mode: a yes only, since accounts
 * refuses a missing or inactive terminal, so a merchant who has just set one up is never refused
 * from memory. Pay, settlement and the sweeper ask accounts every time: they move money with it.
 */
export function rememberActiveTerminals(
  terminals: TerminalProvider,
  clock: Clock,
  ttlMs = REMEMBER_ANSWERS_MS,
): TerminalProvider {
  const terminalFor = rememberAnswers(
    (scope: Parameters<TerminalProvider["terminalFor"]>[0]) => terminals.terminalFor(scope),
    (scope) => `${scope.livemode ? "live" : "test"}:${scope.merchantId}`,
    clock,
    ttlMs,
  );
  return { terminalFor };
}

/** Merchant names for the hosted page: a renamed merchant shows its old name for a few seconds. */
export function rememberMerchantNames(
  merchants: MerchantDirectory,
  clock: Clock,
  ttlMs = REMEMBER_ANSWERS_MS,
): MerchantDirectory {
  const merchantName = rememberAnswers(
    (merchantId: string) => merchants.merchantName(merchantId),
    (merchantId) => merchantId,
    clock,
    ttlMs,
  );
  return { merchantName };
}
