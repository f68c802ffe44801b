import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";

/** An HTML date input's value: a calendar day, read as a UTC day. */
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

function dayStart(text: string): Date | undefined {
  const match = DAY.exec(text);
  if (!match) return undefined;
  const at = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  // Rejects 2026-02-31, which Date.UTC would roll over into March.
  return at.toISOString().slice(0, 10) === text ? at : undefined;
}

export type DayRangeProblem = { field: "from" | "to"; code: "invalid_date" | "date_range" };

/**
 * The `from` and `to` days of a list form as creation-time bounds: empty means unbounded, `to`
 * is inclusive (up to its last millisecond, UTC).
 */
export function readDayRange(
  from: string,
  to: string,
): { createdGte?: Timestamp; createdLte?: Timestamp; problems: DayRangeProblem[] } {
  const problems: DayRangeProblem[] = [];
  const start = from === "" ? undefined : dayStart(from);
  const end = to === "" ? undefined : dayStart(to);
  if (from !== "" && !start) problems.push({ field: "from", code: "invalid_date" });
  if (to !== "" && !end) problems.push({ field: "to", code: "invalid_date" });
  if (start && end && start.getTime() > end.getTime()) problems.push({ field: "to", code: "date_range" });
  return {
    ...(start ? { createdGte: timestampFromDate(start) } : {}),
    ...(end ? { createdLte: timestampFromDate(new Date(end.getTime() + DAY_MS - 1)) } : {}),
    problems,
  };
}
