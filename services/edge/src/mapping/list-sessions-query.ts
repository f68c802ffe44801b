import { create } from "@bufbuild/protobuf";
import { type FieldViolation, GatewayError } from "@gateway/platform";
import {
  type AccountScope,
  type ListSessionsRequest,
  ListSessionsRequestSchema,
  PageRequestSchema,
  SessionStatus,
} from "@gateway/proto";
import { violation } from "./field-violations.js";
import { applyPageParam } from "./page-query.js";
import { parseRfc3339 } from "./rfc3339.js";

const KNOWN_PARAMS = new Set([
  "limit",
  "starting_after",
  "status",
  "created_gte",
  "created_lte",
  "merchant_reference",
]);
export const DEFAULT_LIST_LIMIT = 20;

/** Status filter values: the API's enum names ("CREATED", ...), never UNSPECIFIED. */
export const STATUS_BY_NAME: ReadonlyMap<string, SessionStatus> = new Map(
  Object.values(SessionStatus)
    .filter(
      (value): value is SessionStatus => typeof value === "number" && value !== SessionStatus.UNSPECIFIED,
    )
    .map((value) => [SessionStatus[value], value] as const),
);

/**
 * Maps the list query (docs/api/sessions.md#list-sessions) to ListSessionsRequest. Every bad value,
 * repeated parameter and unknown parameter is a 422 validation-error on that parameter.
 */
export function mapListSessionsQuery(
  query: Record<string, unknown>,
  scope: AccountScope,
): ListSessionsRequest {
  const violations: FieldViolation[] = [];
  const request = create(ListSessionsRequestSchema, {
    scope,
    page: create(PageRequestSchema, { limit: DEFAULT_LIST_LIMIT }),
  });

  for (const [name, raw] of Object.entries(query)) {
    if (!KNOWN_PARAMS.has(name)) {
      violations.push(violation.invalid(name, "Unknown query parameter."));
      continue;
    }
    if (typeof raw !== "string") {
      violations.push(violation.invalid(name, "Give this parameter once."));
      continue;
    }
    const problem = applyParam(request, name, raw);
    if (problem) violations.push(violation.invalid(name, problem));
  }
  if (violations.length > 0) throw GatewayError.validation(violations);
  return request;
}

/** Sets one parameter; returns why the value is refused, if it is. */
function applyParam(request: ListSessionsRequest, name: string, raw: string): string | undefined {
  const pageProblem = applyPageParam(request.page!, name, raw);
  if (pageProblem !== null) return pageProblem;
  switch (name) {
    case "status": {
      const status = STATUS_BY_NAME.get(raw);
      if (status === undefined) return `Must be one of ${[...STATUS_BY_NAME.keys()].join(", ")}.`;
      request.status = status;
      return undefined;
    }
    case "created_gte":
    case "created_lte": {
      const at = parseRfc3339(raw);
      if (!at) return "Must be an RFC 3339 date-time such as 2026-01-31T12:00:00Z.";
      if (name === "created_gte") request.createdGte = at;
      else request.createdLte = at;
      return undefined;
    }
    case "merchant_reference":
      if (raw === "") return "Must not be empty.";
      request.merchantReference = raw;
      return undefined;
    default:
      return "Unknown query parameter.";
  }
}
