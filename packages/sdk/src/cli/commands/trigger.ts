import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Gateway } from "../../client.js";
import type { Session } from "../../types.js";
import { payWithTestCard } from "../checkout-driver.js";
import { type CliContext, credentials, gatewayFor, UsageError } from "../context.js";

/** The simulator's test cards (docs/api/checkout.md#test-cards). */
const APPROVED_CARD = "4242424242424242";
const DECLINED_CARD = "4000000000000002";

export const TRIGGERS = [
  "session.succeeded",
  "session.failed",
  "session.expired",
  "refund.succeeded",
] as const;
export type Trigger = (typeof TRIGGERS)[number];

export interface TriggerFlags {
  /** Seconds to wait for the outcome; session.expired waits for the session's own lifetime as well. */
  timeout?: string;
}

async function until<T>(
  what: string,
  deadline: number,
  signal: AbortSignal,
  read: () => Promise<T | undefined>,
): Promise<T> {
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(500, undefined, { signal });
  }
}

const inStatus = (gateway: Gateway, id: string, status: string) => async (): Promise<Session | undefined> => {
  const session = await gateway.sessions.retrieve(id);
  return session.status === status ? session : undefined;
};

/**
 * `gateway trigger <event>`: makes the event happen for real on a test session, the way a buyer
 * would (the simulator's card page), then waits until the gateway has recorded the event for
 * delivery. session.expired waits for the session's lifetime (GATEWAY_SESSION_LIFETIME: shorten it
 * on a local gateway).
 */
export async function trigger(ctx: CliContext, name: string | undefined, flags: TriggerFlags): Promise<void> {
  if (!TRIGGERS.includes(name as Trigger))
    throw new UsageError(`Usage: gateway trigger ${TRIGGERS.join("|")}`);
  const event = name as Trigger;
  // Test cards and test money only: a live key never gets as far as creating a session.
  if (!credentials(ctx).apiKey.startsWith("sk_test_"))
    throw new UsageError("gateway trigger needs a test key.");
  const gateway = gatewayFor(ctx);
  const out = ctx.out;
  const timeoutMs = Number(flags.timeout ?? "60") * 1000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new UsageError("--timeout takes a number of seconds");
  const reference = `trigger-${event.replace(".", "-")}-${randomBytes(6).toString("hex")}`;

  out.progress(`Creating a test session (${reference})…`);
  const session = await gateway.sessions.create({
    merchant_reference: reference,
    amount: "10.000",
    description: `gateway trigger ${event}`,
    ...(event === "session.failed" ? { max_attempts: 1 } : {}),
  });
  let deadline = Date.now() + timeoutMs;
  let refundId: string | undefined;

  if (event === "session.expired") {
    out.progress(`Waiting for the session to expire at ${session.expires_at}…`);
    const expiresAt = Date.parse(session.expires_at ?? "");
    if (!Number.isNaN(expiresAt)) deadline = Math.max(deadline, expiresAt + timeoutMs);
    await until("the session to expire", deadline, ctx.signal, inStatus(gateway, session.id, "EXPIRED"));
  } else {
    const card = event === "session.failed" ? DECLINED_CARD : APPROVED_CARD;
    out.progress(`Paying with the test card ${card}…`);
    await payWithTestCard(session.checkout_url!, card);
    const outcome = event === "session.failed" ? "FAILED" : "SUCCEEDED";
    await until(`the session to be ${outcome}`, deadline, ctx.signal, inStatus(gateway, session.id, outcome));
    if (event === "refund.succeeded") {
      out.progress("Refunding it in full…");
      refundId = (
        await gateway.sessions.refund(session.id, { refund_type: "FULL", reason: "gateway trigger" })
      ).refund_id;
    }
  }

  out.progress(`Waiting for ${event} to be recorded…`);
  const delivery = await until(`the ${event} event`, deadline, ctx.signal, async () => {
    const page = await gateway.deliveries.list({ session_id: session.id, event });
    return page.data[0];
  });
  const result = {
    event,
    session_id: session.id,
    ...(refundId !== undefined ? { refund_id: refundId } : {}),
    event_id: delivery.event_id,
    delivery_id: delivery.id,
  };
  out.result(
    result,
    () =>
      `${out.colour.green("✔")} Triggered ${event}: session ${session.id}${refundId ? `, refund ${refundId}` : ""} (event ${delivery.event_id})`,
  );
}
