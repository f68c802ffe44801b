import type { Clock } from "./clock.js";

/** Keys remembered at once by default; past the bound the oldest is forgotten first. */
export const MAX_REMEMBERED_ANSWERS = 10_000;

export interface AnswerMemoryOptions {
  /** Keys remembered at once (default MAX_REMEMBERED_ANSWERS). */
  maxEntries?: number;
}

interface Remembered<V> {
  answer: Promise<V>;
  /** When the question behind the answer was asked: its age counts from here. */
  askedAt: number;
  /** The answer once it arrived; only an arrived answer is asked again ahead of time. */
  arrived: { value: V } | undefined;
  refreshing: boolean;
}

/**
 * Answers remembered per key for `ttlMs`, where a few seconds' staleness is harmless and asking
 * costs a round trip (the edge: API keys; sessions: terminals and merchant names; webhooks:
 * endpoints). An answer being asked is remembered from the start, so calls that ask meanwhile
 * share it; a failure is forgotten at once, so the next call asks again.
 *
 * An answer used in the second half of its time is asked again in the background, once, while
 * the remembered one is still given (docs/decisions.md#remembered-answers-are-renewed-before-they-run-out):
 * a key in steady use never runs out, so no caller waits for the round trip every `ttlMs` and
 * the callers of that moment do not all ask at once. A renewal replaces the answer only if the
 * key was not forgotten or told something else meanwhile; a failed renewal forgets the key. The
 * staleness bound is unchanged: no answer is handed out more than `ttlMs` after it was asked.
 */
export class AnswerMemory<V> {
  private readonly entries = new Map<string, Remembered<V>>();
  private readonly maxEntries: number;

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
    options: AnswerMemoryOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? MAX_REMEMBERED_ANSWERS;
  }

  /** The answer remembered for `key` while fresh; otherwise `ask()`'s, remembered from now. */
  answer(key: string, ask: () => Promise<V>): Promise<V> {
    const now = this.now();
    const known = this.entries.get(key);
    if (known && now - known.askedAt < this.ttlMs) {
      if (known.arrived && !known.refreshing && now - known.askedAt >= this.ttlMs / 2)
        this.renew(key, known, ask);
      return known.answer;
    }
    return this.track(key, ask(), now).answer;
  }

  /** Remembers `answer` for `key` from now, in place of anything remembered or asked before. */
  remember(key: string, answer: V): void {
    this.keep(key, answer, this.now());
  }

  /** Forgets `key`, an answer still on its way included: it can no longer be handed out. */
  forget(key: string): void {
    this.entries.delete(key);
  }

  /**
   * Forgets every key whose answer `matches`, and every answer still on its way (which cannot be
   * judged yet, so it is not handed out again either).
   */
  forgetWhere(matches: (answer: V) => boolean): void {
    for (const [key, entry] of this.entries) {
      if (!entry.arrived || matches(entry.arrived.value)) this.entries.delete(key);
    }
  }

  private renew(key: string, known: Remembered<V>, ask: () => Promise<V>): void {
    known.refreshing = true;
    const askedAt = this.now();
    ask().then(
      (answer) => {
        if (this.entries.get(key) === known) this.keep(key, answer, askedAt);
      },
      () => {
        if (this.entries.get(key) === known) this.entries.delete(key);
      },
    );
  }

  /** Stores an answer on its way, asked at `askedAt`: forgotten if it fails. */
  private track(key: string, answer: Promise<V>, askedAt: number): Remembered<V> {
    const entry = this.store(key, answer, askedAt);
    answer.then(
      (value) => {
        entry.arrived = { value };
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry;
  }

  /** Stores an answer already known, asked at `askedAt`. */
  private keep(key: string, answer: V, askedAt: number): void {
    this.store(key, Promise.resolve(answer), askedAt).arrived = { value: answer };
  }

  private store(key: string, answer: Promise<V>, askedAt: number): Remembered<V> {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    const entry: Remembered<V> = {
      answer,
      askedAt,
      arrived: undefined,
      refreshing: false,
    };
    this.entries.set(key, entry);
    return entry;
  }

  private now(): number {
    return this.clock.now().getTime();
  }
}
