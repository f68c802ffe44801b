import { create } from "@bufbuild/protobuf";
import {
  type AccountScope,
  DeliveryStatus,
  type ListDeliveriesRequest,
  ListDeliveriesRequestSchema,
} from "@gateway/proto";
import { WEBHOOK_EVENT_NAMES } from "../../routes/webhook-routes.js";
import { type DayRangeProblem, readDayRange } from "../day-range.js";

/** Every event a delivery can be of, for the log's event filter: the API's list. */
export const LOGGED_EVENTS: readonly string[] = WEBHOOK_EVENT_NAMES;

export const DELIVERY_STATUSES = ["PENDING", "SUCCEEDED", "FAILED"] as const;
const LOG_PAGE_SIZE = 25;
const SESSION_ID = /^ps_[0-9A-Za-z]{1,64}$/;
const DELIVERY_ID = /^whd_[0-9A-Za-z]{1,64}$/;

export interface DeliveryLogForm {
  event: string;
  status: string;
  session: string;
  from: string;
  to: string;
  after: string;
}

export type DeliveryLogProblem = DayRangeProblem | { field: "event" | "status" | "session"; code: "invalid" };

function one(value: unknown): string {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === "string" ? first.trim() : "";
}

/**
 * The delivery log's GET form (bookmarkable) as a ListDeliveriesRequest in the signed-in scope:
 * event, status, session and UTC days; unknown values are named, never guessed.
 */
export function readDeliveryLogFilter(
  query: Record<string, unknown>,
  scope: AccountScope,
): { form: DeliveryLogForm; request?: ListDeliveriesRequest; problems: DeliveryLogProblem[] } {
  const form: DeliveryLogForm = {
    event: one(query.event),
    status: one(query.status),
    session: one(query.session),
    from: one(query.from),
    to: one(query.to),
    after: one(query.after),
  };
  const problems: DeliveryLogProblem[] = [];
  if (form.event !== "" && !LOGGED_EVENTS.includes(form.event))
    problems.push({ field: "event", code: "invalid" });
  if (form.status !== "" && !(DELIVERY_STATUSES as readonly string[]).includes(form.status))
    problems.push({ field: "status", code: "invalid" });
  if (form.session !== "" && !SESSION_ID.test(form.session))
    problems.push({ field: "session", code: "invalid" });
  const range = readDayRange(form.from, form.to);
  problems.push(...range.problems);
  if (problems.length > 0) return { form, problems };
  const request = create(ListDeliveriesRequestSchema, {
    scope,
    page: { limit: LOG_PAGE_SIZE, startingAfter: DELIVERY_ID.test(form.after) ? form.after : "" },
    event: form.event,
    sessionId: form.session,
    status:
      form.status === ""
        ? DeliveryStatus.UNSPECIFIED
        : DeliveryStatus[form.status as (typeof DELIVERY_STATUSES)[number]],
    ...(range.createdGte ? { createdGte: range.createdGte } : {}),
    ...(range.createdLte ? { createdLte: range.createdLte } : {}),
  });
  return { form, request, problems };
}
