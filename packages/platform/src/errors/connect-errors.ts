import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { type ErrorDetail, ErrorDetailSchema, FieldViolationSchema } from "@gateway/proto";
import { capViolations } from "../validation/violation-cap.js";
import { errorCatalog, isErrorReason } from "./error-catalog.js";
import { GatewayError } from "./gateway-error.js";

/** Error detail metadata: how many violations were left out of `field_violations`. */
export const VIOLATIONS_OMITTED = "violations_omitted";

/**
 * Turns anything thrown inside a service into a ConnectError that carries an ErrorDetail.
 * Unknown errors become INTERNAL with a generic message: internals never cross the wire
 * (the original stays in `cause` for the service's own logs).
 */
export function toConnectError(err: unknown, domain: string): ConnectError {
  if (err instanceof GatewayError) {
    const entry = errorCatalog[err.reason];
    // Trailers must stay small whatever the input (an HTTP/2 frame is 16 KiB): capped, counted.
    const capped = capViolations(err.violations, omittedOf(err.metadata));
    const metadata = { ...err.metadata };
    if (capped.omitted > 0) metadata[VIOLATIONS_OMITTED] = String(capped.omitted);
    const detail = create(ErrorDetailSchema, {
      reason: err.reason,
      domain,
      metadata,
      fieldViolations: capped.violations.map((v) => create(FieldViolationSchema, v)),
    });
    return new ConnectError(
      err.message,
      entry.code,
      undefined,
      [{ desc: ErrorDetailSchema, value: detail }],
      err,
    );
  }
  if (err instanceof ConnectError && readErrorDetail(err)) return err;
  const detail = create(ErrorDetailSchema, { reason: "INTERNAL", domain });
  return new ConnectError(
    "Internal error.",
    Code.Internal,
    undefined,
    [{ desc: ErrorDetailSchema, value: detail }],
    err,
  );
}

/** The count of violations an error's metadata says were left out (0 when none). */
export function omittedOf(metadata: Record<string, string>): number {
  const n = Number(metadata[VIOLATIONS_OMITTED] ?? "0");
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/** Reads the ErrorDetail a gateway service attached, if any. */
export function readErrorDetail(err: ConnectError): ErrorDetail | undefined {
  return err.findDetails(ErrorDetailSchema)[0];
}

/**
 * Rebuilds a GatewayError on the calling side, so a use case that calls another service can
 * rethrow or branch on the same reason. Transport failures (service down, deadline) become
 * SERVICE_UNAVAILABLE: retryable, never a 500.
 */
export function fromConnectError(err: unknown): GatewayError {
  if (err instanceof GatewayError) return err;
  const ce = ConnectError.from(err);
  const detail = readErrorDetail(ce);
  if (detail && isErrorReason(detail.reason)) {
    return new GatewayError(detail.reason, ce.rawMessage, {
      metadata: { ...detail.metadata },
      violations: detail.fieldViolations.map(({ field, code, message }) => ({ field, code, message })),
      cause: ce,
    });
  }
  if (ce.code === Code.Unavailable || ce.code === Code.DeadlineExceeded || ce.code === Code.Canceled) {
    return new GatewayError("SERVICE_UNAVAILABLE", "A gateway dependency is temporarily unavailable.", {
      cause: ce,
    });
  }
  return new GatewayError("INTERNAL", "Internal error.", { cause: ce });
}

/**
 * Server interceptor: every error leaving a service handler is a ConnectError with an
 * ErrorDetail. `onInternal` sees unexpected errors (to log them with their cause).
 */
export function errorDetailInterceptor(domain: string, onInternal?: (err: unknown) => void): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (err) {
      const ce = toConnectError(err, domain);
      // An error that already carries a detail was converted (and logged) by an inner layer.
      const alreadyConverted = err instanceof ConnectError && ce === err;
      if (ce.code === Code.Internal && onInternal && !alreadyConverted) onInternal(err);
      throw ce;
    }
  };
}
