/** The acquirer's day closes at local midnight in Tunisia (TND is the settlement currency). */
export const DEFAULT_SETTLEMENT_TIME_ZONE = "Africa/Tunis";

const formatters = new Map<string, Intl.DateTimeFormat>();

/** "YYYY-MM-DD" of the instant in the time zone (en-CA formats dates that way). */
function calendarDay(at: Date, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(at);
}

/**
 * Card acquirers settle the day's approvals in the end-of-day batch: until the local midnight
 * after approval the payment can be reversed (nothing moved yet), after it only refunded.
 */
export function settledAfterLocalMidnight(
  approvedAt: Date,
  now: Date,
  timeZone: string = DEFAULT_SETTLEMENT_TIME_ZONE,
): boolean {
  return calendarDay(approvedAt, timeZone) < calendarDay(now, timeZone);
}
