import type { Delivery } from "../../types.js";
import { type CliContext, gatewayFor, UsageError } from "../context.js";
import { givenOnly, pageText } from "../output.js";

export interface DeliveryFlags {
  limit?: string;
  status?: string;
  event?: string;
  session?: string;
  startingAfter?: string;
}

const row = (d: Delivery) => [d.id, d.event, d.status ?? "-", d.session_id, d.created_at ?? "-"];

/** `gateway deliveries resend <delivery_id>`: the event goes out again now, as a new attempt. */
export async function resendDelivery(ctx: CliContext, id: string | undefined): Promise<void> {
  if (!id) throw new UsageError("Usage: gateway deliveries resend <delivery_id>");
  const delivery = await gatewayFor(ctx).deliveries.resend(id);
  ctx.out.result(
    delivery,
    () =>
      `${ctx.out.colour.green("✔")} Resent ${delivery.event} (event ${delivery.event_id}) as ${delivery.id}, attempt ${delivery.attempt_number}`,
  );
}

/** `gateway deliveries list [--session ID] [--status S] [--event E] [--limit N]` */
export async function listDeliveries(ctx: CliContext, flags: DeliveryFlags): Promise<void> {
  const page = await gatewayFor(ctx).deliveries.list(
    givenOnly({
      limit: flags.limit,
      status: flags.status,
      event: flags.event,
      session_id: flags.session,
      starting_after: flags.startingAfter,
    }),
  );
  ctx.out.result(page, () =>
    pageText(page, ["ID", "EVENT", "STATUS", "SESSION", "CREATED"], row, "No deliveries."),
  );
}
