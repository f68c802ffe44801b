import type { CreateIndexesOptions, IndexSpecification } from "mongodb";
import type { Session } from "../../domain/session.js";
import { sweepDueAt } from "../../domain/sweep-schedule.js";

/**
 * The sweeper's schedule as a session document stores it: one next due time, the earliest of the
 * session's expiry (while payable), its link expiry and its reconciliation
 * (docs/decisions.md#the-sweeper-finds-due-work-by-one-next-due-time). Derived from the session
 * on every write, so one indexed field answers every look for due work.
 */
export interface NextDueFields {
  /** When the sweeper next has work on the session; null when it has none. */
  nextDueAt: Date | null;
  /**
   * The UTC minute of `nextDueAt` (`2026-11-24T12:20`): the sweeper's usual looks ask for the
   * minutes that just fell due by equality, which FerretDB 1.24 pushes down (a date range it
   * does not, and would read every document).
   */
  nextDueMinute: string | null;
  /** Whether `nextDueAt` is set: the look by dates filters on it by equality, for the same reason. */
  nextDueScheduled: boolean;
}

/** The UTC minute of `at`, as stored in `nextDueMinute`. */
export function minuteOf(at: Date | number): string {
  return new Date(at).toISOString().slice(0, 16);
}

export function nextDueFields(session: Session): NextDueFields {
  const due = sweepDueAt(session);
  return due === undefined
    ? { nextDueAt: null, nextDueMinute: null, nextDueScheduled: false }
    : { nextDueAt: new Date(due), nextDueMinute: minuteOf(due), nextDueScheduled: true };
}

/** Whether a document's stored next due time (absent in older documents) is the session's own. */
export function storesNextDueOf(stored: { nextDueAt?: Date | null }, session: Session): boolean {
  if (stored.nextDueAt === undefined) return false;
  return (stored.nextDueAt?.getTime() ?? null) === (sweepDueAt(session) ?? null);
}

type IndexDeclaration = { key: IndexSpecification; options: CreateIndexesOptions & { name: string } };

/** The sweeper's two looks: the minutes that just fell due, and everything due by date. */
export const NEXT_DUE_INDEXES: readonly IndexDeclaration[] = [
  { key: { nextDueMinute: 1, nextDueAt: 1 }, options: { name: "next_due_minute" } },
  { key: { nextDueScheduled: 1, nextDueAt: 1 }, options: { name: "next_due" } },
];

/** The six indexes of the three separate schedules the next due time replaced. */
export const RETIRED_SCHEDULE_INDEXES = [
  "expiry_due",
  "link_expiry_due",
  "reconcile_due",
  "expiry_minute",
  "link_expiry_minute",
  "reconcile_minute",
] as const;
