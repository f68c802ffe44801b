import { create } from "@bufbuild/protobuf";
import { parseAmount, SETTLEMENT_CURRENCY } from "@gateway/money";
import {
  type AccountScope,
  type ListSessionsRequest,
  ListSessionsRequestSchema,
  PageRequestSchema,
} from "@gateway/proto";
import { STATUS_BY_NAME } from "../../mapping/list-sessions-query.js";
import { readDayRange } from "../day-range.js";

/** Rows per page of the dashboard's payments list. */
export const PAYMENTS_PAGE_SIZE = 25;

/** What the payments list form may carry, as the inputs are named in the HTML. */
export interface PaymentsFilterForm {
  status: string;
  reference: string;
  order: string;
  from: string;
  to: string;
  amount: string;
  after: string;
}

/** One refused input: the view turns `code` into a sentence in the page's language. */
export interface FilterProblem {
  field: keyof PaymentsFilterForm;
  code: "unknown_status" | "invalid_date" | "date_range" | "invalid_amount";
}

export type PaymentsFilter =
  | { ok: true; form: PaymentsFilterForm; request: ListSessionsRequest }
  | { ok: false; form: PaymentsFilterForm; problems: FilterProblem[] };

/** The single value of a query parameter; a repeated one counts as its first value. */
function one(value: unknown): string {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === "string" ? first.trim() : "";
}

/**
 * Reads the payments list form (a GET form, so a filtered page can be bookmarked) into a
 * ListSessionsRequest. Empty inputs mean "any"; the "to" day is inclusive (up to its last
 * millisecond, UTC); the amount is an exact TND decimal string, never a float.
 */
export function readPaymentsFilter(query: Record<string, unknown>, scope: AccountScope): PaymentsFilter {
  const form: PaymentsFilterForm = {
    status: one(query.status),
    reference: one(query.reference),
    order: one(query.order),
    from: one(query.from),
    to: one(query.to),
    amount: one(query.amount),
    after: one(query.after),
  };
  const problems: FilterProblem[] = [];
  const request = create(ListSessionsRequestSchema, {
    scope,
    page: create(PageRequestSchema, { limit: PAYMENTS_PAGE_SIZE, startingAfter: form.after }),
    merchantReference: form.reference,
    orderNumber: form.order,
  });
  if (form.status !== "") {
    const status = STATUS_BY_NAME.get(form.status);
    if (status === undefined) problems.push({ field: "status", code: "unknown_status" });
    else request.status = status;
  }
  const range = readDayRange(form.from, form.to);
  problems.push(...range.problems);
  if (range.createdGte) request.createdGte = range.createdGte;
  if (range.createdLte) request.createdLte = range.createdLte;
  if (form.amount !== "") {
    if (parseAmount(form.amount, SETTLEMENT_CURRENCY).ok) request.amount = form.amount;
    else problems.push({ field: "amount", code: "invalid_amount" });
  }
  return problems.length > 0 ? { ok: false, form, problems } : { ok: true, form, request };
}
