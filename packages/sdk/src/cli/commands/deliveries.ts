import type { Delivery } from "../../types.js";
import { type CliContext, gatewayFor } from "../context.js";
import { table } from "../output.js";

export interface DeliveryFlags {
  limit?: string;
  status?: string;
  event?: string;
  session?: string;
  startingAfter?: string;
}

const row = (d: Delivery) => [d.id, d.event, d.status ?? "-", d.session_id, d.created_at ?? "-"];

/** `gateway deliveries list [--session ID] [--status S] [--event E] [--limit N]` */
export async function listDeliveries(ctx: CliContext, flags: DeliveryFlags): Promise<void> {
  const page = await gatewayFor(ctx).deliveries.list({
    ...(flags.limit !== undefined ? { limit: flags.limit } : {}),
    ...(flags.status !== undefined ? { status: flags.status } : {}),
    ...(flags.event !== undefined ? { event: flags.event } : {}),
    ...(flags.session !== undefined ? { session_id: flags.session } : {}),
    ...(flags.startingAfter !== undefined ? { starting_after: flags.startingAfter } : {}),
  });
  ctx.out.result(page, () => {
    if (page.data.length === 0) return "No deliveries.";
    const lines = table([["ID", "EVENT", "STATUS", "SESSION", "CREATED"], ...page.data.map(row)]);
    return page.has_more ? `${lines}\n… more: --starting-after ${page.next_cursor}` : lines;
  });
}
