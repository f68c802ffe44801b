import { create } from "@bufbuild/protobuf";
import { type Timestamp, TimestampSchema, timestampDate } from "@bufbuild/protobuf/wkt";

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * Parses an RFC 3339 date-time (offset required, fractions up to nanoseconds) into an exact
 * Timestamp; undefined for anything else, including impossible dates such as 2026-02-30.
 */
export function parseRfc3339(text: string): Timestamp | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  // Second 60 is a leap second (RFC 3339 5.7); it is read as the next second.
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  let offsetMinutes = 0;
  if (m[8] === undefined) {
    const offsetHours = Number(m[10]);
    const offsetMins = Number(m[11]);
    if (offsetHours > 23 || offsetMins > 59) return undefined;
    offsetMinutes = (m[9] === "-" ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const seconds = BigInt(date.getTime() / 1000) - BigInt(offsetMinutes * 60);
  const nanos = m[7] === undefined ? 0 : Number(m[7].padEnd(9, "0"));
  return create(TimestampSchema, { seconds, nanos });
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const MS_PER_DAY = 86_400_000;
/** 9999-12-31T23:59:59.999Z: the last instant written with a four-digit year. */
const LAST_FOUR_DIGIT_YEAR_MS = 253_402_300_799_999;

const twoDigits = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const threeDigits = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * RFC 3339 in UTC with milliseconds (`2026-01-01T00:00:00.000Z`), exactly as
 * `timestampDate(ts).toISOString()` writes it; null when unset. Written by arithmetic from 1970
 * to 9999: every session, attempt and delivery in a response has several, and `toISOString`
 * took 0.85 µs each (docs/decisions.md#timestamps-are-written-by-arithmetic).
 */
export function formatTimestamp(ts: Timestamp | undefined): string | null {
  if (!ts) return null;
  // Sub-millisecond nanos round up, as timestampDate rounds them.
  const ms = Number(ts.seconds) * 1000 + Math.ceil(ts.nanos / 1_000_000);
  if (!(ms >= 0 && ms <= LAST_FOUR_DIGIT_YEAR_MS)) return timestampDate(ts).toISOString();
  const days = Math.floor(ms / MS_PER_DAY);
  let rest = ms - days * MS_PER_DAY;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${civilDate(days)}T${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(seconds)}.${threeDigits(rest - seconds * 1000)}Z`;
}

/**
 * `YYYY-MM-DD` of a day counted from 1970-01-01 (not before it), by the proleptic Gregorian
 * calendar: Howard Hinnant's days-to-civil algorithm, with eras of 400 years starting on March 1.
 */
function civilDate(daysSinceEpoch: number): string {
  const z = daysSinceEpoch + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${twoDigits(month)}-${twoDigits(day)}`;
}
