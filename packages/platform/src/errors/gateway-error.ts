import type { ErrorReason } from "./error-catalog.js";

/** One failed field of a validation error; `code` is one of docs/api/errors.md#validation-errors. */
export interface FieldViolation {
  field: string;
  code: string;
  message: string;
}

/**
 * A domain error with a stable reason that survives process boundaries.
 * `message` is safe to show to a merchant (it becomes the problem `detail`);
 * `cause` keeps the underlying error for logs and never leaves the process.
 */
export class GatewayError extends Error {
  override readonly name = "GatewayError";

  constructor(
    readonly reason: ErrorReason,
    message: string,
    readonly options: {
      metadata?: Record<string, string>;
      violations?: FieldViolation[];
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: options.cause });
  }

  get metadata(): Record<string, string> {
    return this.options.metadata ?? {};
  }

  get violations(): FieldViolation[] {
    return this.options.violations ?? [];
  }

  static validation(violations: FieldViolation[]): GatewayError {
    return new GatewayError("VALIDATION_ERROR", "One or more fields failed validation.", { violations });
  }

  static notFound(what: string, id: string): GatewayError {
    return new GatewayError("NOT_FOUND", `No ${what} with id '${id}' exists for this account.`, {
      metadata: { id },
    });
  }
}
