import type { Clock } from "./clock.js";

/** Keys remembered at once by default; past the bound the oldest is forgotten first. */
export const MAX_REMEMBERED_ANSWERS = 10_000;

interface Remembered<V> {
  answer: Promise<V>;
  until: number;
}

/**
 * Answers remembered per key for `ttlMs`, where a few seconds' staleness is harmless and asking
 * costs a round trip (sessions: terminals and merchant names; webhooks: endpoints). An answer
 * being asked is remembered from the start, so calls that ask meanwhile share it; a failure is
 * forgotten at once, so the next call asks again.
 */
export class AnswerMemory<V> {
  private readonly entries = new Map<string, Remembered<V>>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly maxEntries = MAX_REMEMBERED_ANSWERS,
  ) {}

  /** The answer remembered for `key` while fresh; otherwise `ask()`'s, remembered from now. */
  answer(key: string, ask: () => Promise<V>): Promise<V> {
    const known = this.entries.get(key);
    if (known && known.until > this.clock.now().getTime()) return known.answer;
    const answer = ask();
    const entry = this.store(key, answer);
    answer.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return answer;
  }

  /** Remembers `answer` for `key` from now, in place of anything remembered before. */
  remember(key: string, answer: Promise<V>): void {
    this.store(key, answer);
  }

  /** Forgets `key`, an answer still on its way included: it can no longer be handed out. */
  forget(key: string): void {
    this.entries.delete(key);
  }

  private store(key: string, answer: Promise<V>): Remembered<V> {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    const entry = { answer, until: this.clock.now().getTime() + this.ttlMs };
    this.entries.set(key, entry);
    return entry;
  }
}
