import { setTimeout as sleep } from "node:timers/promises";
import { buildSignatureHeader, generateWebhookSecret, Webhook } from "@gateway/webhook-signature";
import { SDK_VERSION } from "../../client.js";
import { errorFor } from "../../problem-error.js";
import { type CliContext, credentials, UsageError } from "../context.js";
import { readEventStream, type ServerSentEvent } from "../event-stream.js";

/** The edge's stream of the key's test-mode events (docs/api/webhooks.md#listening-on-a-laptop). */
export const EVENT_STREAM_PATH = "/api/v1/gateway/events/stream/";

export interface ListenFlags {
  forwardTo?: string;
  events?: string;
}

/**
 * `gateway listen --forward-to http://127.0.0.1:3000/hooks [--events a,b]`: holds the edge's event
 * stream open and POSTs each event to the local URL exactly as the gateway would deliver it (same
 * body bytes, Standard Webhooks and X-Service-Signature headers), signed with a secret made for this
 * listen and printed at start. Reconnects with backoff when the stream drops; stops on Ctrl-C.
 */
export async function listen(ctx: CliContext, flags: ListenFlags): Promise<void> {
  if (!flags.forwardTo)
    throw new UsageError("Usage: gateway listen --forward-to http://127.0.0.1:3000/hooks");
  const forwardTo = new URL(flags.forwardTo).toString();
  const only = flags.events ? new Set(flags.events.split(",").map((e) => e.trim())) : undefined;
  const { apiKey, baseUrl } = credentials(ctx);
  if (!apiKey.startsWith("sk_test_"))
    throw new UsageError("gateway listen streams test-mode events: use a test key.");
  const secret = generateWebhookSecret();
  const signer = new Webhook(secret);
  const out = ctx.out;

  let announced = false;
  for (let failures = 0; !ctx.signal.aborted; ) {
    let response: Response;
    try {
      response = await fetch(new URL(EVENT_STREAM_PATH, baseUrl), {
        headers: {
          authorization: `Bearer ${apiKey}`,
          accept: "text/event-stream",
          "user-agent": `gateway-cli/${SDK_VERSION}`,
        },
        signal: ctx.signal,
      });
    } catch (error) {
      if (ctx.signal.aborted) return;
      failures++;
      out.progress(out.colour.dim(`could not reach ${baseUrl} (${(error as Error).message}); retrying`));
      await sleep(Math.min(30_000, 500 * 2 ** failures), undefined, { signal: ctx.signal }).catch(() => {});
      continue;
    }
    if (!response.ok || response.body === null) {
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      // Retrying cannot fix a refused key or a gateway without the stream; an overloaded one, yes.
      if (![429, 502, 503].includes(response.status)) throw errorFor(response, body);
      failures++;
      await sleep(Math.min(30_000, 500 * 2 ** failures), undefined, { signal: ctx.signal }).catch(() => {});
      continue;
    }
    failures = 0;
    if (!announced) {
      announced = true;
      if (out.json) out.line({ type: "ready", secret, forward_to: forwardTo });
      else
        out.info(
          `${out.colour.green("Ready!")} Forwarding test-mode events to ${forwardTo}\nYour webhook signing secret is ${out.colour.bold(secret)} (^C to quit)`,
        );
    } else out.progress(out.colour.dim("reconnected"));
    try {
      for await (const message of readEventStream(response.body)) {
        if (only && !only.has(message.event)) continue;
        await forward(ctx, message, forwardTo, secret, signer);
      }
    } catch (error) {
      if (ctx.signal.aborted) return;
      out.progress(out.colour.dim(`stream dropped (${(error as Error).message}); reconnecting`));
    }
  }
}

async function forward(
  ctx: CliContext,
  message: ServerSentEvent,
  forwardTo: string,
  secret: string,
  signer: Webhook,
): Promise<void> {
  const body = message.data;
  let id = message.id;
  try {
    id ??= (JSON.parse(body) as { id?: string }).id;
  } catch {}
  id ??= `evt_listen_${Date.now()}`;
  const timestamp = Math.floor(Date.now() / 1000);
  const out = ctx.out;
  let status: number | string;
  try {
    const res = await fetch(forwardTo, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": `gateway-cli/${SDK_VERSION}`,
        "webhook-id": id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signer.sign(id, timestamp, body),
        "x-service-signature": buildSignatureHeader({ timestamp, body, secrets: [secret] }),
      },
      body,
      signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(30_000)]),
    });
    await res.arrayBuffer();
    status = res.status;
  } catch (error) {
    status = (error as Error).message;
  }
  if (out.json) out.line({ type: "forwarded", event: message.event, id, status });
  else {
    const ok = typeof status === "number" && status >= 200 && status < 300;
    const shown = ok ? out.colour.green(String(status)) : out.colour.red(String(status));
    out.info(`${new Date().toISOString()}  --> ${message.event} [${id}]  <-- [${shown}] POST ${forwardTo}`);
  }
}
