import { Decimal } from "decimal.js";

export type Dec = Decimal;

/**
 * The one Decimal constructor the gateway uses for money. A private clone so that nobody's
 * `Decimal.set(...)` elsewhere can change how amounts round. The exponent limits make
 * `toString()` print plain digits for any realistic amount or rate (never "1e+21").
 */
export const D: typeof Decimal = Decimal.clone({
  precision: 40,
  rounding: Decimal.ROUND_HALF_UP,
  toExpNeg: -30,
  toExpPos: 40,
});

/**
 * Same settings but no practical precision cap. Multiplication and addition with it are exact
 * (decimal.js computes every digit of a product before rounding to `precision`), so a result is
 * rounded once, to the currency's decimals, never first to 40 significant digits.
 */
const Exact: typeof Decimal = D.clone({ precision: 1e9 });

/** Exact product of two decimals, as a `D` value. */
export function exactTimes(a: Decimal, b: Decimal): Decimal {
  return new D(new Exact(a).times(new Exact(b)));
}

/**
 * The only text accepted for amounts and rates: optional minus, no leading zeros, optional
 * fraction with at least one digit. ASCII digits only; `$` without the `m` flag anchors at the
 * very end, so a trailing newline is rejected too.
 */
export const STRICT_DECIMAL = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/** Number of digits after the point in a string that matched STRICT_DECIMAL. */
export function fractionDigits(text: string): number {
  const point = text.indexOf(".");
  return point === -1 ? 0 : text.length - point - 1;
}

/** Number of digits before the point (sign excluded) in a string that matched STRICT_DECIMAL. */
export function integerDigits(text: string): number {
  const unsigned = text.startsWith("-") ? text.slice(1) : text;
  const point = unsigned.indexOf(".");
  return point === -1 ? unsigned.length : point;
}

/** `toFixed` rounded half-up, without the "-0.000" decimal.js prints for negative zero. */
export function toFixedHalfUp(value: Decimal, decimals: number): string {
  const rounded = new D(value).toDecimalPlaces(decimals, D.ROUND_HALF_UP);
  return (rounded.isZero() ? rounded.abs() : rounded).toFixed(decimals);
}
