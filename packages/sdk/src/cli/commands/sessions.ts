import type { Session } from "../../types.js";
import { type CliContext, gatewayFor, UsageError } from "../context.js";
import { givenOnly, pageText } from "../output.js";

export interface ListFlags {
  limit?: string;
  status?: string;
  reference?: string;
  startingAfter?: string;
}

const row = (s: Session) =>
  [s.id, s.status, `${s.amount} ${s.currency}`, s.merchant_reference, s.created_at].map((c) => c ?? "-");

/** `gateway sessions list [--limit N] [--status S] [--reference R] [--starting-after ID]` */
export async function listSessions(ctx: CliContext, flags: ListFlags): Promise<void> {
  const page = await gatewayFor(ctx).sessions.list(
    givenOnly({
      limit: flags.limit,
      status: flags.status,
      merchant_reference: flags.reference,
      starting_after: flags.startingAfter,
    }),
  );
  ctx.out.result(page, () =>
    pageText(page, ["ID", "STATUS", "AMOUNT", "REFERENCE", "CREATED"], row, "No sessions."),
  );
}

/** `gateway sessions get <id>` */
export async function getSession(ctx: CliContext, id: string | undefined): Promise<void> {
  if (!id) throw new UsageError("Usage: gateway sessions get <session_id>");
  const session = await gatewayFor(ctx).sessions.retrieve(id);
  ctx.out.result(session, () =>
    [
      ctx.out.colour.bold(session.id),
      `  status      ${session.status}`,
      `  amount      ${session.amount} ${session.currency}`,
      `  reference   ${session.merchant_reference}`,
      `  checkout    ${session.checkout_url ?? "-"}`,
      `  created     ${session.created_at}`,
      `  expires     ${session.expires_at}`,
    ].join("\n"),
  );
}
