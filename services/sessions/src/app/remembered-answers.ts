import { AnswerMemory, type Clock } from "@gateway/platform";
import type { MerchantDirectory, TerminalProvider } from "./ports.js";

/** How long an answer from accounts is trusted where a few seconds' staleness is harmless. */
export const REMEMBER_ANSWERS_MS = 5_000;

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
  const memory = new AnswerMemory<V>(clock, ttlMs);
  return (key) => memory.answer(keyOf(key), () => ask(key));
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
