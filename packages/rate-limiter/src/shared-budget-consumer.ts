import { setTimeout as sleep } from "node:timers/promises";
import type { Clock } from "@gateway/platform";
import { combineOutcomes, type Decision, type ResolvedBudget } from "./decision.js";
import { evaluateGcra, type GcraOutcome, refundGcra } from "./gcra.js";
import type { GcraStore } from "./gcra-store.js";
import type { TatTable } from "./tat-table.js";

/** The caller stopped waiting (timeout): the outcome is no longer wanted. */
export class CheckAbandonedError extends Error {
  override readonly name = "CheckAbandonedError";
}

export interface SharedBudgetConsumerOptions {
  store: GcraStore;
  clock: Clock;
  /** Last TAT seen in the store per key, read by the limiter to deny without a round trip. */
  seen: TatTable;
  /** Compare-and-set attempts per key before the request is denied as contended. */
  maxAttempts: number;
  /** Told when a request is denied because maxAttempts CAS conflicts in a row hit one key. */
  onContention(key: string, attempts: number): void;
  /** Told when a consumed unit could not be given back (the budget stays charged for it). */
  onGiveBackFailure(key: string, err: unknown): void;
}

/**
 * Decides one request against the shared store, consuming from all its budgets or from none.
 *
 * KV has no multi-key transaction, so: read every budget key; if any denies, deny without
 * writing. Otherwise compare-and-set the keys one by one in canonical order (account, create,
 * refund). On a conflict, re-read that key and re-decide it at the current time: still allowed,
 * CAS again (at most maxAttempts, with jitter, after which the request is denied as contended);
 * now denied, the whole request is denied and the
 * keys already written are given back: their TAT is moved back by one emission interval, by CAS
 * on whatever value is current (a compensation, not a restore: other replicas' writes since
 * then stay counted). So a denied request consumes nothing, except when the give-back itself
 * fails (store error, or maxAttempts conflicts): then each already-written budget stays charged
 * for one request. That is the bound: a denied multi-budget request over-consumes at most one
 * unit in each budget before the one that denied (at most 2 units, since a request has at most
 * 3 budgets), and only ever errs towards admitting less, never more. It is logged.
 * A request the caller abandoned (timeout) after writing some keys is given back the same way.
 */
export class SharedBudgetConsumer {
  constructor(private readonly o: SharedBudgetConsumerOptions) {}

  async consume(budgets: readonly ResolvedBudget[], now: number, signal: AbortSignal): Promise<Decision> {
    const states = await Promise.all(budgets.map((b) => this.o.store.get(b.key)));
    if (signal.aborted) throw new CheckAbandonedError("check abandoned before writing");
    const outcomes = budgets.map((b, i) => {
      const tat = states[i]?.tat;
      this.remember(b.key, tat, now);
      return evaluateGcra(b.limit, tat, now);
    });
    if (outcomes.some((o) => !o.allowed)) return combineOutcomes(budgets, outcomes, false);

    const written: ResolvedBudget[] = [];
    try {
      for (const [i, budget] of budgets.entries()) {
        const denial = await this.consumeOne(budget, states[i], outcomes, i, now, signal);
        if (denial !== undefined) {
          await this.giveBack(written);
          return denial;
        }
        written.push(budget);
      }
    } catch (err) {
      // The store failed or we were abandoned half-way: return what we took without delaying the caller.
      void this.giveBack(written);
      throw err;
    }
    return combineOutcomes(budgets, outcomes, false);
  }

  /** Gives back one unit of each budget (its TAT moves back by T); failures are reported, not thrown. */
  async giveBack(budgets: readonly ResolvedBudget[]): Promise<void> {
    for (const budget of budgets) {
      try {
        await this.giveBackOne(budget);
      } catch (err) {
        this.o.onGiveBackFailure(budget.key, err);
      }
    }
  }

  /** CASes one key, re-deciding on conflict. Returns a denial if the key, re-read, denies or stays contended. */
  private async consumeOne(
    budget: ResolvedBudget,
    initial: { tat: number; revision: number } | undefined,
    outcomes: GcraOutcome[],
    index: number,
    now: number,
    signal: AbortSignal,
  ): Promise<Decision | undefined> {
    let state = initial;
    let at = now;
    let outcome = outcomes[index] as GcraOutcome;
    for (let attempt = 1; ; attempt++) {
      if (signal.aborted) throw new CheckAbandonedError("check abandoned while writing");
      if (
        await this.o.store.compareAndSet(
          budget.key,
          outcome.newTat,
          state?.revision,
          ttlFor(outcome.newTat, at),
        )
      ) {
        this.remember(budget.key, outcome.newTat, at);
        outcomes[index] = outcome;
        return undefined;
      }
      if (attempt >= this.o.maxAttempts) {
        // Other replicas keep writing this key: the merchant is sending hard through several of
        // them. Deny rather than guess (a local decision could admit past the shared budget);
        // Retry-After is one emission interval, when the next request could fit at the earliest.
        this.o.onContention(budget.key, attempt);
        const emission = Math.ceil(1000 / budget.limit.ratePerSec);
        const denied: GcraOutcome = {
          allowed: false,
          newTat: outcome.newTat,
          remaining: 0,
          resetMs: outcome.resetMs,
          retryAfterMs: emission,
        };
        return combineOutcomes([budget], [denied], false);
      }
      await sleep(Math.random() * attempt);
      state = await this.o.store.get(budget.key);
      at = this.now();
      this.remember(budget.key, state?.tat, at);
      outcome = evaluateGcra(budget.limit, state?.tat, at);
      if (!outcome.allowed) return combineOutcomes([budget], [outcome], false);
    }
  }

  private async giveBackOne(budget: ResolvedBudget): Promise<void> {
    for (let attempt = 1; attempt <= this.o.maxAttempts; attempt++) {
      const state = await this.o.store.get(budget.key);
      const now = this.now();
      // A TAT at or before now is a full bucket: our unit has already flowed back.
      if (state === undefined || state.tat <= now) return;
      const tat = refundGcra(budget.limit, state.tat);
      if (await this.o.store.compareAndSet(budget.key, tat, state.revision, ttlFor(tat, now))) {
        this.remember(budget.key, tat, now);
        return;
      }
    }
    throw new Error(
      `could not give back one request on ${budget.key}: ${this.o.maxAttempts} conflicts in a row`,
    );
  }

  private remember(key: string, tat: number | undefined, now: number): void {
    this.o.seen.set(key, tat ?? now, now);
  }

  private now(): number {
    return this.o.clock.now().getTime();
  }
}

/** A key is worth keeping until its TAT: after that it reads the same as an absent key. */
function ttlFor(tat: number, now: number): number {
  return Math.max(1, Math.ceil(tat - now));
}
