import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { parseAmount, SETTLEMENT_CURRENCY } from "@gateway/money";
import {
  type AccountScope,
  type ListSessionsRequest,
  ListSessionsRequestSchema,
  PageRequestSchema,
} from "@gateway/proto";
import { STATUS_BY_NAME } from "../../mapping/list-sessions-query.js";

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

/** An HTML date input's value: a calendar day, read as a UTC day. */
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

function dayStart(text: string): Date | undefined {
  const match = DAY.exec(text);
  if (!match) return undefined;
  const at = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  // Rejects 2026-02-31, which Date.UTC would roll over into March.
  return at.toISOString().slice(0, 10) === text ? at : undefined;
}

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
  const from = form.from === "" ? undefined : dayStart(form.from);
  const to = form.to === "" ? undefined : dayStart(form.to);
  if (form.from !== "" && !from) problems.push({ field: "from", code: "invalid_date" });
  if (form.to !== "" && !to) problems.push({ field: "to", code: "invalid_date" });
  if (from && to && from.getTime() > to.getTime()) problems.push({ field: "to", code: "date_range" });
  if (from) request.createdGte = timestampFromDate(from);
  if (to) request.createdLte = timestampFromDate(new Date(to.getTime() + DAY_MS - 1));
  if (form.amount !== "") {
    if (parseAmount(form.amount, SETTLEMENT_CURRENCY).ok) request.amount = form.amount;
    else problems.push({ field: "amount", code: "invalid_amount" });
  }
  return problems.length > 0 ? { ok: false, form, problems } : { ok: true, form, request };
}
