const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

// The three HTTP-date forms a recipient must accept (RFC 9110, 5.6.7), all in GMT.
const IMF_FIXDATE = /^[A-Z][a-z]{2}, (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const RFC_850 = /^[A-Z][a-z]+, (\d{2})-([A-Z][a-z]{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const ASCTIME = /^[A-Z][a-z]{2} ([A-Z][a-z]{2}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

function utc(year: number, month: string, day: number, h: number, m: number, s: number): number | undefined {
  const monthIndex = MONTHS.indexOf(month);
  if (monthIndex < 0 || day < 1 || day > 31 || h > 23 || m > 59 || s > 60) return undefined;
  return Date.UTC(year, monthIndex, day, h, m, s);
}

/** Milliseconds since the epoch of an HTTP-date, or undefined when it is not one. */
export function parseHttpDate(text: string): number | undefined {
  let match = IMF_FIXDATE.exec(text);
  if (match) {
    const [, d, mon, y, h, mi, s] = match;
    return utc(Number(y), mon ?? "", Number(d), Number(h), Number(mi), Number(s));
  }
  match = RFC_850.exec(text);
  if (match) {
    const [, d, mon, yy, h, mi, s] = match;
    // Two-digit years: the century that puts the date at most 50 years ahead (RFC 9110).
    const thisYear = new Date().getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(yy);
    if (year > thisYear + 50) year -= 100;
    return utc(year, mon ?? "", Number(d), Number(h), Number(mi), Number(s));
  }
  match = ASCTIME.exec(text);
  if (match) {
    const [, mon, d, h, mi, s, y] = match;
    return utc(Number(y), mon ?? "", Number(d?.trim()), Number(h), Number(mi), Number(s));
  }
  return undefined;
}

/**
 * The wait a receiver asked for in `Retry-After`, in milliseconds from `nowMs`: delay-seconds or
 * an HTTP-date (a date already past means 0). Anything else is ignored rather than guessed at.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) {
    const ms = Number(text) * 1000;
    return Number.isSafeInteger(ms) ? ms : undefined;
  }
  const at = parseHttpDate(text);
  return at === undefined ? undefined : Math.max(0, at - nowMs);
}
