import {
  capViolations,
  type ErrorReason,
  errorCatalog,
  type FieldViolation,
  omittedOf,
} from "@gateway/platform";

/** RFC 9457 problem document (docs/api/errors.md), with the extension members it names. */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  /** Validation failures only (docs/api/errors.md#validation-errors). */
  errors?: FieldViolation[];
  /** Validation failures past the first 50 in `errors` are only counted (see docs/decisions.md). */
  errors_omitted?: number;
  /** conflict: the session the repeated merchant_reference belongs to. */
  existing_session_id?: string;
}

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/** `{errors_url}/<suffix>`; a trailing slash in the configured URL is tolerated. */
export function problemTypeUri(errorsUrl: string, reason: ErrorReason): string {
  return `${errorsUrl.replace(/\/+$/, "")}/${errorCatalog[reason].problemType}`;
}

export interface ProblemInput {
  reason: ErrorReason;
  detail: string;
  instance?: string;
  violations?: FieldViolation[];
  metadata?: Record<string, string>;
}

export function buildProblem(errorsUrl: string, input: ProblemInput): ProblemDocument {
  const entry = errorCatalog[input.reason];
  const doc: ProblemDocument = {
    type: problemTypeUri(errorsUrl, input.reason),
    title: entry.title,
    status: entry.httpStatus,
    detail: input.detail,
  };
  if (input.instance !== undefined) doc.instance = input.instance;
  if (input.reason === "VALIDATION_ERROR") {
    const capped = capViolations(input.violations ?? [], omittedOf(input.metadata ?? {}));
    doc.errors = capped.violations;
    if (capped.omitted > 0) doc.errors_omitted = capped.omitted;
  }
  const existing = input.metadata?.existing_session_id;
  if (input.reason === "CONFLICT" && existing) doc.existing_session_id = existing;
  return doc;
}
