import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { GatewayError, type LiveEvent, type LiveEventFeed } from "@gateway/platform";
import type { FastifyInstance } from "fastify";
import { routeSchema } from "../api/operations.js";
import { requireCaller } from "../auth/authenticated-caller.js";

export interface EventStreamRoutesDeps {
  /** Absent when this edge has no way to hear events (distributed without NATS): the route answers 503. */
  feed?: LiveEventFeed;
  heartbeatMs?: number;
  maxStreamsPerAccount?: number;
  /** Bytes a slow reader may leave unread before its stream is ended rather than buffered further. */
  maxBufferedBytes?: number;
}

export const DEFAULT_HEARTBEAT_MS = 15_000;
export const DEFAULT_MAX_STREAMS_PER_ACCOUNT = 5;
export const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * docs/api/webhooks.md#listening-on-a-laptop: the account's test-mode events as server-sent
 * events, for `gateway listen`. Registered under /api/v1 behind the API key hook. The stream is
 * bounded: a few per account, heartbeats so proxies and clients notice a dead connection, and a
 * reader that falls behind is cut off instead of buffered without limit. On shutdown every
 * stream ends, so the server can close.
 */
export function registerEventStreamRoutes(app: FastifyInstance, deps: EventStreamRoutesDeps): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const heartbeatMs = deps.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const maxStreams = deps.maxStreamsPerAccount ?? DEFAULT_MAX_STREAMS_PER_ACCOUNT;
  const maxBuffered = deps.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  const openByMerchant = new Map<string, number>();
  const endAll = new Set<() => void>();
  app.addHook("preClose", async () => {
    for (const end of [...endAll]) end();
  });

  api.get("/gateway/events/stream/", { schema: routeSchema("streamEvents") }, async (request, reply) => {
    const { scope } = requireCaller(request);
    if (scope.livemode)
      throw new GatewayError(
        "FORBIDDEN",
        "The events stream is for test keys only; live events arrive as webhooks.",
      );
    const feed = deps.feed;
    if (!feed)
      throw new GatewayError(
        "SERVICE_UNAVAILABLE",
        "Listening for events is not available on this gateway right now.",
      );
    const merchantId = scope.merchantId;
    const open = openByMerchant.get(merchantId) ?? 0;
    if (open >= maxStreams)
      throw new GatewayError(
        "CONFLICT",
        `This account already has ${maxStreams} open event streams; close one before opening another.`,
      );
    openByMerchant.set(merchantId, open + 1);

    const raw = reply.raw;
    let ended = false;
    let unsubscribe: (() => void) | undefined;
    let heartbeat: NodeJS.Timeout | undefined;
    const end = () => {
      if (ended) return;
      ended = true;
      endAll.delete(end);
      clearInterval(heartbeat);
      unsubscribe?.();
      const left = (openByMerchant.get(merchantId) ?? 1) - 1;
      if (left > 0) openByMerchant.set(merchantId, left);
      else openByMerchant.delete(merchantId);
      if (!raw.writableEnded) raw.end();
    };
    const write = (text: string) => {
      if (ended) return;
      raw.write(text);
      if (raw.writableLength > maxBuffered) {
        request.log.warn({ merchantId }, "event stream reader too slow; stream ended");
        end();
      }
    };
    try {
      unsubscribe = await feed.subscribe(merchantId, (event) => write(serverSentEvent(event)));
    } catch (err) {
      end();
      throw err;
    }
    reply.hijack();
    endAll.add(end);
    raw.on("close", end);
    raw.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
      "request-id": String(request.id),
    });
    // The subscription is live: a client may now trigger events and expect to see them.
    write(": connected\n\n");
    heartbeat = setInterval(() => write(": ping\n\n"), heartbeatMs);
  });
}

/** One event in the text/event-stream format; a body with line breaks spans several `data:` lines. */
export function serverSentEvent(event: LiveEvent): string {
  const data = event.body.split(/\r\n|\r|\n/).map((line) => `data: ${line}\n`);
  return `id: ${oneLine(event.id)}\nevent: ${oneLine(event.type)}\n${data.join("")}\n`;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]/g, "");
}
