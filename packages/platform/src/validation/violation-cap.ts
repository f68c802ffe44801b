import type { FieldViolation } from "../errors/gateway-error.js";

/**
 * How many violations one answer reports (problem `errors[]`, gRPC error details). A hostile
 * body can hold thousands of bad members; past this many the merchant learns only how many
 * more there were (`errors_omitted`), so answers and gRPC trailers stay small whatever the input.
 */
export const MAX_REPORTED_VIOLATIONS = 50;
/** A field path or message longer than this (an unknown member's name is the merchant's) is cut. */
export const MAX_VIOLATION_TEXT = 200;

export interface CappedViolations {
  violations: FieldViolation[];
  /** How many were left out, on top of any `alreadyOmitted` passed in. */
  omitted: number;
}

export function capViolations(violations: readonly FieldViolation[], alreadyOmitted = 0): CappedViolations {
  const shown = violations.slice(0, MAX_REPORTED_VIOLATIONS).map(({ field, code, message }) => ({
    field: cut(field),
    code: cut(code),
    message: cut(message),
  }));
  return {
    violations: shown,
    omitted: alreadyOmitted + Math.max(0, violations.length - MAX_REPORTED_VIOLATIONS),
  };
}

/** Keeps both ends (member names often differ only at the end), with "…" for the middle. */
function cut(text: string): string {
  if (text.length <= MAX_VIOLATION_TEXT) return text;
  const half = Math.floor((MAX_VIOLATION_TEXT - 1) / 2);
  return `${text.slice(0, half)}…${text.slice(text.length - (MAX_VIOLATION_TEXT - 1 - half))}`;
}

/**
 * Collects violations up to the cap and only counts the rest, so that validating a hostile
 * body costs time in its size and memory in the cap.
 */
export class ViolationCollector {
  readonly violations: FieldViolation[] = [];
  omitted = 0;

  add(v: FieldViolation | undefined): void {
    if (v === undefined) return;
    if (this.violations.length < MAX_REPORTED_VIOLATIONS)
      this.violations.push(capViolations([v]).violations[0]!);
    else this.omitted += 1;
  }

  get empty(): boolean {
    return this.violations.length === 0 && this.omitted === 0;
  }
}
