import type { components } from "./generated/openapi.js";

/** A problem document (RFC 9457) as the gateway answers it; docs/api/errors.md. */
export type Problem = components["schemas"]["Problem"];
/** One member of a validation-error's `errors[]`: `field`, a `code` of docs/api/errors.md#validation-errors, a `message`. */
export type FieldViolation = components["schemas"]["FieldViolation"];

/**
 * Thrown for every answer that is not a 2xx. `type` ends with the problem's name
 * (`…/errors/validation-error`), `problem` is the whole document, and a validation error carries its
 * violations in `errors`, so a form can show each one beside its field.
 */
export class GatewayProblemError extends Error {
  override readonly name = "GatewayProblemError";
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  readonly instance: string | undefined;
  readonly errors: FieldViolation[];
  readonly errorsOmitted: number;
  /** A 409 on create: the session the merchant_reference already belongs to. */
  readonly existingSessionId: string | undefined;
  readonly problem: Problem;
  /** The gateway's request id (`x-request-id`), to quote to support. */
  readonly requestId: string | undefined;

  constructor(problem: Problem, requestId?: string) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`);
    this.status = problem.status;
    this.type = problem.type;
    this.title = problem.title;
    this.detail = problem.detail;
    this.instance = problem.instance;
    this.errors = problem.errors ?? [];
    this.errorsOmitted = problem.errors_omitted ?? 0;
    this.existingSessionId = problem.existing_session_id;
    this.problem = problem;
    this.requestId = requestId;
  }

  /** The problem's short name: `validation-error`, `not-found`, `conflict`, … */
  get code(): string {
    return this.type.slice(this.type.lastIndexOf("/") + 1);
  }
}

/** The gateway could not be reached (or a proxy answered without a problem document) after every retry. */
export class GatewayConnectionError extends Error {
  override readonly name = "GatewayConnectionError";
}

function isProblem(value: unknown): value is Problem {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.type === "string" && typeof v.status === "number" && typeof v.title === "string";
}

/** The error for a non-2xx answer: its problem document, or a stand-in when a proxy answered in HTML. */
export function errorFor(response: Response, body: unknown): GatewayProblemError {
  const requestId = response.headers.get("x-request-id") ?? undefined;
  if (isProblem(body)) return new GatewayProblemError({ ...body, detail: body.detail ?? "" }, requestId);
  return new GatewayProblemError(
    {
      type: "about:blank",
      title: response.statusText || "HTTP error",
      status: response.status,
      detail:
        typeof body === "string" ? body.slice(0, 500) : `HTTP ${response.status} without a problem document`,
    },
    requestId,
  );
}
