import type { Clock } from "@gateway/platform";
import type { TerminalProvider } from "./ports.js";

/** How long a create trusts an earlier answer that the merchant's terminal is active. */
export const CREATE_TERMINAL_CHECK_TTL_MS = 5_000;

/** Scopes remembered at once; past this the oldest is forgotten first. */
const MAX_REMEMBERED = 10_000;

type Terminal = Awaited<ReturnType<TerminalProvider["terminalFor"]>>;

interface Remembered {
  answer: Promise<Terminal>;
  until: number;
}

/**
 * The terminal check a create makes, remembered for a few seconds per merchant and mode
 * (docs/decisions.md#a-create-remembers-an-active-terminal-for-five-seconds). Only a yes is
 * remembered: a refusal or a failure is forgotten at once, so a merchant who has just set up a
 * terminal is never refused from memory. Creates that ask while an answer is on its way share
 * it. Pay, settlement and the sweeper ask accounts every time: they move money with the terminal.
 */
export function rememberActiveTerminals(
  terminals: TerminalProvider,
  clock: Clock,
  ttlMs = CREATE_TERMINAL_CHECK_TTL_MS,
): TerminalProvider {
  const remembered = new Map<string, Remembered>();
  return {
    terminalFor(scope) {
      const key = `${scope.livemode ? "live" : "test"}:${scope.merchantId}`;
      const now = clock.now().getTime();
      const known = remembered.get(key);
      if (known && known.until > now) return known.answer;
      remembered.delete(key);
      if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
      const entry: Remembered = { answer: terminals.terminalFor(scope), until: now + ttlMs };
      remembered.set(key, entry);
      entry.answer.catch(() => {
        if (remembered.get(key) === entry) remembered.delete(key);
      });
      return entry.answer;
    },
  };
}
